import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DynaliteServer, startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import {
  DynamoDbHttpClient,
  DynamoDbServiceError,
  dynamoDbClientFor,
} from '../../../lambdas/adapters/dynamodb/dynamodb-http-client.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { parseEnvironment } from '../../../lambdas/runtime/environment.js';

interface Seen {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An endpoint that answers each request with the next scripted reply, for what no local engine
 * can be made to answer (throttling, a 5xx), and records what it was sent.
 */
async function scriptedEndpoint(
  replies: { status: number; body: object; headers?: Record<string, string> }[],
) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      seen.push({ headers: request.headers, body });
      const reply = replies.shift() ?? { status: 200, body: {} };
      response.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0', ...reply.headers });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const throttled = {
  status: 400,
  body: {
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'slow down',
  },
};

describe('DynamoDbHttpClient', () => {
  let dynalite: DynaliteServer;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    dynalite = await startDynalite();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  afterAll(async () => {
    await dynalite?.close();
  });

  /** A client of a scripted endpoint in region `local`; both are closed after the test. */
  async function scriptedClient(replies: Parameters<typeof scriptedEndpoint>[0]) {
    const endpoint = await scriptedEndpoint(replies);
    const client = new DynamoDbHttpClient({
      endpoint: endpoint.endpoint,
      region: 'local',
      credentials: CREDENTIALS,
    });
    closers.push(async () => {
      client.destroy();
      await endpoint.close();
    });
    return { client, seen: endpoint.seen };
  }

  it('writes and reads an item on dynalite, and names a failed condition as DynamoDB does', async () => {
    const client = createLocalDynamoDbClient(dynalite.endpoint);
    await ensureTable(client, 'wire');
    const item = { pk: { S: 'A' }, sk: { S: 'B' }, n: { N: '7' } };
    await client.send('PutItem', { TableName: 'wire', Item: item });

    const { Item } = await client.send<{ Item?: object }>('GetItem', {
      TableName: 'wire',
      Key: { pk: { S: 'A' }, sk: { S: 'B' } },
      ConsistentRead: true,
    });
    expect(Item).toEqual(item);

    const refused = await client
      .send('PutItem', { TableName: 'wire', Item: item, ConditionExpression: 'attribute_not_exists(pk)' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DynamoDbServiceError);
    expect(refused).toMatchObject({ name: 'ConditionalCheckFailedException', statusCode: 400 });
    client.destroy();
  });

  it('signs as the AWS SDK signs: the same request, date and keys give the same signature', async () => {
    const endpoint = await scriptedEndpoint([{ status: 200, body: {} }]);
    closers.push(endpoint.close);
    const client = new DynamoDbHttpClient({
      endpoint: endpoint.endpoint,
      region: 'eu-west-1',
      credentials: { ...CREDENTIALS, sessionToken: 'session-token' },
    });
    await client.send('GetItem', { TableName: 'meridian', Key: { pk: { S: 'A' }, sk: { S: 'B' } } });
    client.destroy();

    const [{ headers, body }] = endpoint.seen as [Seen];
    expect(headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(headers['x-amz-security-token']).toBe('session-token');
    const authorization = String(headers.authorization);
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
    const amzDate = String(headers['x-amz-date']);
    const signingDate = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`,
    );
    const sdkSigner = new SignatureV4({
      service: 'dynamodb',
      region: 'eu-west-1',
      credentials: { ...CREDENTIALS, sessionToken: 'session-token' },
      sha256: NodeSha256,
      // DynamoDB's JSON requests carry no x-amz-content-sha256 header (the SDK's client sends none).
      applyChecksum: false,
    });
    const url = new URL(endpoint.endpoint);
    const signedBySdk = await sdkSigner.sign(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        port: Number(url.port),
        path: '/',
        query: {},
        headers: Object.fromEntries(
          signedHeaders
            .filter((name) => name !== 'x-amz-date' && name !== 'x-amz-security-token')
            .map((name) => [name, String(headers[name])]),
        ),
        body,
      },
      { signingDate },
    );
    expect(authorization).toBe(signedBySdk.headers.authorization);
  });

  it('retries throttling as the SDK did, and gives up after three attempts with the service’s name', async () => {
    const patient = await scriptedClient([
      throttled,
      throttled,
      { status: 200, body: { Item: { pk: { S: 'A' } } } },
    ]);
    await expect(patient.client.send('GetItem', { TableName: 't', Key: {} })).resolves.toEqual({
      Item: { pk: { S: 'A' } },
    });
    expect(patient.seen).toHaveLength(3);

    const giving = await scriptedClient([throttled, throttled, throttled, throttled]);
    await expect(giving.client.send('GetItem', { TableName: 't', Key: {} })).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      message: 'DynamoDB GetItem: slow down',
    });
    expect(giving.seen).toHaveLength(3);
  });

  it('retries a 5xx, and sends a request the service refused as invalid once', async () => {
    const { client, seen } = await scriptedClient([
      { status: 503, body: {} },
      { status: 200, body: {} },
      { status: 400, body: { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad key' } },
    ]);
    await expect(client.send('PutItem', { TableName: 't', Item: {} })).resolves.toEqual({});
    expect(seen).toHaveLength(2);

    await expect(client.send('PutItem', { TableName: 't', Item: {} })).rejects.toMatchObject({
      name: 'ValidationException',
      statusCode: 400,
    });
    expect(seen).toHaveLength(3);
  });

  it('sends a request again when its answer does not match the CRC32 DynamoDB sent with it', async () => {
    const answer = { Item: { pk: { S: 'A' } } };
    const checksum = String(crc32(JSON.stringify(answer)));
    const { client, seen } = await scriptedClient([
      { status: 200, body: answer, headers: { 'x-amz-crc32': String(Number(checksum) ^ 1) } },
      { status: 200, body: answer, headers: { 'x-amz-crc32': checksum } },
    ]);
    await expect(client.send('GetItem', { TableName: 't', Key: {} })).resolves.toEqual(answer);
    expect(seen).toHaveLength(2);
  });

  it('waits for the server through `reconnect` when nobody listens, then sends the request again', async () => {
    const endpoint = await scriptedEndpoint([{ status: 200, body: { Table: { TableStatus: 'ACTIVE' } } }]);
    closers.push(endpoint.close);
    const { port } = new URL(endpoint.endpoint);
    await endpoint.close();
    let reconnects = 0;
    let restarted: Awaited<ReturnType<typeof scriptedOn>> | undefined;
    const client = new DynamoDbHttpClient({
      endpoint: endpoint.endpoint,
      region: 'local',
      credentials: CREDENTIALS,
      reconnect: async () => {
        reconnects += 1;
        restarted = await scriptedOn(Number(port));
      },
    });
    await expect(client.send('DescribeTable', { TableName: 't' })).resolves.toEqual({});
    expect(reconnects).toBe(1);
    expect(restarted?.seen).toHaveLength(1);
    client.destroy();
    await restarted?.close();
  });

  it('takes the region, keys and endpoint Lambda gives a function from its environment', async () => {
    const endpoint = await scriptedEndpoint([{ status: 200, body: {} }]);
    closers.push(endpoint.close);
    const { awsConnection } = parseEnvironment({
      AWS_REGION: 'ap-southeast-2',
      AWS_ACCESS_KEY_ID: 'AKIDFROMENV',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token-from-env',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9/every-other-service',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint.endpoint,
    });
    const client = dynamoDbClientFor(awsConnection);
    await client.send('GetItem', { TableName: 't', Key: {} });
    client.destroy();
    const [{ headers }] = endpoint.seen as [Seen];
    expect(String(headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFROMENV\/\d{8}\/ap-southeast-2\/dynamodb\/aws4_request, /,
    );
    expect(headers['x-amz-security-token']).toBe('token-from-env');
  });

  it('lets the SDK find the region and keys where the environment has none (a profile on a laptop)', async () => {
    const endpoint = await scriptedEndpoint([{ status: 200, body: {} }]);
    closers.push(endpoint.close);
    const folder = mkdtempSync(join(tmpdir(), 'meridian-aws-profile-'));
    closers.push(async () => rmSync(folder, { recursive: true, force: true }));
    writeFileSync(join(folder, 'config'), '[profile ops]\nregion = eu-central-1\n');
    writeFileSync(
      join(folder, 'credentials'),
      '[ops]\naws_access_key_id = AKIDFROMPROFILE\naws_secret_access_key = secret\n',
    );
    for (const name of [
      'AWS_REGION',
      'AWS_DEFAULT_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
    ])
      vi.stubEnv(name, undefined);
    vi.stubEnv('AWS_PROFILE', 'ops');
    vi.stubEnv('AWS_CONFIG_FILE', join(folder, 'config'));
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(folder, 'credentials'));
    closers.push(async () => {
      vi.unstubAllEnvs();
    });

    const client = dynamoDbClientFor({
      region: undefined,
      credentials: undefined,
      endpoint: endpoint.endpoint,
      fips: false,
    });
    await client.send('GetItem', { TableName: 't', Key: {} });
    client.destroy();
    const [{ headers }] = endpoint.seen as [Seen];
    expect(String(headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFROMPROFILE\/\d{8}\/eu-central-1\/dynamodb\/aws4_request, /,
    );
  });
});

/** An endpoint on a given port answering `{}` to everything (the restarted server above). */
async function scriptedOn(port: number) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.push({ headers: request.headers, body: '' });
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The SHA-256 (and HMAC) the SDK's signer asks for, on Node's crypto. */
class NodeSha256 {
  readonly #hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash =
      secret === undefined
        ? createHash('sha256')
        : createHmac('sha256', typeof secret === 'string' ? secret : Buffer.from(secret as ArrayBuffer));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
}
