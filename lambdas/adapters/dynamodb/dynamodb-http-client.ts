import type { AgentOptions, Agent as HttpAgent, request as httpRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import aws4 from 'aws4';
import { exponentialJitter, retry } from '../../core/retry.js';

// node:http and node:https through their CommonJS exports, not `import`: Node builds an ES module's
// view of a builtin by reading every export, and node:http's WebSocket, CloseEvent and
// MessageEvent are getters that load undici — about 20 ms of every cold start on Node 24 for
// classes this client never uses (measured: `import('node:http')` 22 ms, `require` 3 ms).
const requireBuiltin = createRequire(import.meta.url);
const http = requireBuiltin('node:http') as typeof import('node:http');
const https = requireBuiltin('node:https') as typeof import('node:https');

/**
 * DynamoDB's JSON protocol over Node's own HTTP, each request signed (Signature Version 4) by
 * `aws4`. Why not the AWS SDK's DynamoDB client, which the store used before: on a cold start the
 * SDK's client (≈ 550 KB bundled: its middleware stack, endpoint rules, schema serde, credential
 * chain) cost ≈ 85 ms before its first `GetItem` answered, against ≈ 5 ms for this client over a
 * bare HTTP request (fresh processes on this machine, ADR 0028). Every Lambda's cold start pays
 * that, and the store needs six operations of one JSON protocol, no more. What the SDK did that
 * this does too: signing (aws4, the library made for signing Node request options), the standard
 * retry (three attempts, full-jitter backoff, on throttling, 5xx and dropped connections), the
 * answer's CRC32 check, keep-alive connections, errors named as the service names them
 * (`ConditionalCheckFailedException`).
 * What it leaves to the SDK: credentials and region where the environment does not give them
 * (profiles, SSO, container credentials), resolved once through the SDK's own client, loaded only
 * then.
 */

/** The operations Meridian sends: the store's six, and the table's creation where no CDK runs. */
export type DynamoDbOperation =
  | 'GetItem'
  | 'PutItem'
  | 'DeleteItem'
  | 'Query'
  | 'BatchWriteItem'
  | 'BatchGetItem'
  | 'CreateTable'
  | 'DescribeTable'
  | 'ListTables';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface DynamoDbHttpClientOptions {
  /** Where requests go, e.g. `https://dynamodb.eu-west-1.amazonaws.com` or `http://127.0.0.1:8000`. */
  endpoint: string;
  region: string;
  /** Fixed credentials, or a source asked before every request (it caches and refreshes itself). */
  credentials: AwsCredentials | (() => Promise<AwsCredentials>);
  /** A Unix socket to connect to instead of the endpoint's host (the embedded dynalite). */
  socketPath?: string;
  /**
   * Called when a request found no server (see {@link isConnectionFailure}), before it is sent
   * again, at most {@link RECONNECT_ATTEMPTS} times: for a store served by one of several
   * processes, it waits until one serves it (embedded-store.ts).
   */
  reconnect?: () => Promise<void>;
  /** Requests sent in all for one call, retries included. @default 3, as the SDK's standard mode */
  maxAttempts?: number;
}

/** A failure DynamoDB answered, named as the service names it. */
export class DynamoDbServiceError extends Error {
  constructor(
    name: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = name;
  }
}

/** The target prefix of DynamoDB's JSON protocol, version 2012-08-10 (the only one). */
const TARGET_PREFIX = 'DynamoDB_20120810.';
const RECONNECT_ATTEMPTS = 5;
/** Errors DynamoDB answers with 400 that mean "slow down", worth another attempt (SDK's list). */
const THROTTLES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottledException',
  'TooManyRequestsException',
]);
/** A request that waits this long for the next byte is abandoned (and retried). */
const SOCKET_TIMEOUT_MS = 10_000;

/**
 * Node error codes of a request that failed for want of a server: nobody listens on the socket
 * (ECONNREFUSED, ENOENT), or the server went away with the connection (ECONNRESET, EPIPE).
 */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'EAGAIN']);

function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && CONNECTION_FAILURES.has(code);
}

/**
 * An answer whose body does not match the CRC32 DynamoDB sent with it (`x-amz-crc32`): damaged on
 * the way, so sent again, as the SDK's client does.
 */
const CRC_MISMATCH = 'CRC32_MISMATCH';

function isRetryable(error: unknown): boolean {
  if (error instanceof DynamoDbServiceError) return error.statusCode >= 500 || THROTTLES.has(error.name);
  const code = (error as { code?: unknown } | undefined)?.code;
  return isConnectionFailure(error) || code === 'ETIMEDOUT' || code === CRC_MISMATCH;
}

/** Where and as whom requests go, once known. */
interface Target {
  url: URL;
  region: string;
  credentials: () => Promise<AwsCredentials>;
  agent: HttpAgent;
  send: typeof httpRequest;
}

export class DynamoDbHttpClient {
  readonly #target: Promise<Target>;
  readonly #reconnect: (() => Promise<void>) | undefined;
  readonly #maxAttempts: number;

  /** Given a promise, the client waits for it on its first request (a region the SDK resolves). */
  constructor(options: DynamoDbHttpClientOptions | Promise<DynamoDbHttpClientOptions>) {
    this.#target = Promise.resolve(options).then(targetOf);
    // A failed resolution surfaces on each request, not as an unhandled rejection now.
    this.#target.catch(() => undefined);
    const known = 'then' in options ? undefined : options;
    this.#reconnect = known?.reconnect;
    this.#maxAttempts = known?.maxAttempts ?? 3;
  }

  /**
   * Sends one operation with its input in DynamoDB's wire shape (attribute values typed,
   * `{ S: 'text' }`) and answers its output; a failure DynamoDB answered is a
   * {@link DynamoDbServiceError}, anything else (a dropped connection) the socket's error.
   *
   * @example
   * const { Item } = await client.send('GetItem', { TableName: 'meridian', Key: { pk: { S: 'A' }, sk: { S: 'B' } } });
   */
  async send<Output = Record<string, unknown>>(operation: DynamoDbOperation, input: object): Promise<Output> {
    const body = JSON.stringify(input);
    const once = async () => sendOnce(await this.#target, operation, body) as Promise<Output>;
    const reconnect = this.#reconnect;
    const attempt = reconnect
      ? // The pause between tries is the reconnect itself: no timer, the store is back when it resolves.
        () =>
          retry(once, { maxAttempts: RECONNECT_ATTEMPTS, isRetryable: isConnectionFailure, sleep: reconnect })
      : once;
    return retry(attempt, {
      maxAttempts: this.#maxAttempts,
      isRetryable,
      backoff: exponentialJitter({ baseDelayMs: 50, maxDelayMs: 2_000 }),
      sleep: (ms) => sleep(ms),
    });
  }

  /** Closes the kept-alive connections; requests sent afterwards open new ones. */
  destroy(): void {
    void this.#target.then(
      (target) => target.agent.destroy(),
      () => undefined,
    );
  }
}

function targetOf(options: DynamoDbHttpClientOptions): Target {
  const url = new URL(options.endpoint);
  const { credentials } = options;
  const secure = url.protocol === 'https:';
  // An agent's options reach every request it makes; @types/node lists `socketPath` only on requests.
  const agentOptions = { keepAlive: true, socketPath: options.socketPath } as AgentOptions;
  return {
    url,
    region: options.region,
    credentials: typeof credentials === 'function' ? credentials : async () => credentials,
    agent: secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions),
    send: secure ? https.request : http.request,
  };
}

async function sendOnce(target: Target, operation: DynamoDbOperation, body: string): Promise<unknown> {
  const signed = aws4.sign(
    {
      host: target.url.hostname,
      port: target.url.port || undefined,
      method: 'POST',
      path: target.url.pathname,
      service: 'dynamodb',
      region: target.region,
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': TARGET_PREFIX + operation,
      },
      body,
    },
    await target.credentials(),
  );
  const response = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = target.send({ ...signed, agent: target.agent, timeout: SOCKET_TIMEOUT_MS }, (incoming) =>
      readAll(incoming).then((body) => {
        const checksum = incoming.headers['x-amz-crc32'];
        if (typeof checksum === 'string' && crc32(body) !== Number(checksum))
          reject(
            Object.assign(
              new Error(`DynamoDB ${operation}: the answer's CRC32 does not match its x-amz-crc32`),
              { code: CRC_MISMATCH },
            ),
          );
        else resolve({ status: incoming.statusCode ?? 0, text: body.toString('utf8') });
      }, reject),
    );
    request.on('timeout', () =>
      request.destroy(
        Object.assign(new Error(`DynamoDB ${operation}: no answer for ${SOCKET_TIMEOUT_MS} ms`), {
          code: 'ETIMEDOUT',
        }),
      ),
    );
    request.on('error', reject);
    request.end(body);
  });
  if (response.status === 200) return JSON.parse(response.text);
  throw serviceError(operation, response.status, response.text);
}

function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}

/** DynamoDB's error body: `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"…"}`. */
function serviceError(operation: DynamoDbOperation, status: number, text: string): DynamoDbServiceError {
  let parsed: { __type?: unknown; message?: unknown; Message?: unknown } = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the status names the failure.
  }
  const type = typeof parsed.__type === 'string' ? parsed.__type.split('#').pop() : undefined;
  const message = parsed.message ?? parsed.Message;
  return new DynamoDbServiceError(
    type || (status >= 500 ? 'InternalServerError' : `HTTP${status}`),
    `DynamoDB ${operation}: ${typeof message === 'string' ? message : `HTTP ${status}`}`,
    status,
  );
}

/**
 * How a deployed function reaches DynamoDB, as Lambda's environment gives it (runtime/environment.ts
 * parses it): AWS_REGION, the role's keys, the SDK's endpoint variables
 * (AWS_ENDPOINT_URL_DYNAMODB, then AWS_ENDPOINT_URL) and AWS_USE_FIPS_ENDPOINT.
 */
export interface AwsConnection {
  region: string | undefined;
  credentials: AwsCredentials | undefined;
  endpoint: string | undefined;
  fips: boolean;
}

/**
 * The client for the deployed table. Where the environment lacks a region or keys (the CLI with a
 * profile or SSO), the SDK's own client resolves them, loaded only then.
 *
 * @example
 * const client = dynamoDbClientFor(processEnvironment().awsConnection);
 */
export function dynamoDbClientFor(connection: AwsConnection): DynamoDbHttpClient {
  const { region, credentials } = connection;
  if (region && credentials)
    return new DynamoDbHttpClient({ endpoint: endpointFor(region, connection), region, credentials });
  return new DynamoDbHttpClient(resolvedBySdk(connection));
}

function endpointFor(region: string, connection: AwsConnection): string {
  if (connection.endpoint) return connection.endpoint;
  const fips = connection.fips ? '-fips' : '';
  const suffix = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://dynamodb${fips}.${region}.${suffix}`;
}

/** Region and credentials as the SDK finds them (profiles, SSO, container credentials). */
async function resolvedBySdk(connection: AwsConnection): Promise<DynamoDbHttpClientOptions> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const sdk = new DynamoDBClient(connection.region ? { region: connection.region } : {});
  const region = await sdk.config.region();
  return {
    endpoint: endpointFor(region, connection),
    region,
    credentials: connection.credentials ?? (() => sdk.config.credentials()),
  };
}
