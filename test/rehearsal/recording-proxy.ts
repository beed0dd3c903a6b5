import { createServer, request as httpRequest, type Server } from 'node:http';
import { REHEARSAL_ACCOUNT, REHEARSAL_REGION } from './intrinsics.js';

/** One AWS call a function sent, as IAM authorizes it: who (the access key: its role), action, resource. */
export interface SentCall {
  principal: string;
  action: string;
  resource: string;
}

/** How a service's requests map to IAM actions and resources. */
type Classify = (request: {
  method: string;
  host: string;
  path: string;
  query: URLSearchParams;
  target: string;
  body: string;
}) => {
  action: string;
  resource: string;
}[];

const arn = (service: string, resource: string) =>
  `arn:aws:${service}:${REHEARSAL_REGION}:${REHEARSAL_ACCOUNT}:${resource}`;

/** DynamoDB (JSON 1.0, `DynamoDB_20120810.<Operation>`): the table, or the index a Query names. */
export const classifyDynamoDb: Classify = ({ target, body }) => {
  const operation = target.split('.')[1] ?? target;
  const input = JSON.parse(body || '{}') as {
    TableName?: string;
    IndexName?: string;
    RequestItems?: Record<string, unknown>;
  };
  const tables = input.TableName ? [input.TableName] : Object.keys(input.RequestItems ?? {});
  return tables.map((table) => ({
    action: `dynamodb:${operation}`,
    resource: arn('dynamodb', `table/${table}${input.IndexName ? `/index/${input.IndexName}` : ''}`),
  }));
};

/**
 * S3 REST, virtual-host style (`<bucket>.s3.localhost`): the IAM action each request needs, per the
 * S3 API reference (HeadObject needs s3:GetObject, listing needs s3:ListBucket).
 */
export const classifyS3: Classify = ({ method, host, path, query }) => {
  const bucket = host.split('.s3.')[0]!;
  const key = decodeURIComponent(path.replace(/^\//, ''));
  if (key === '') {
    if (method === 'POST' && query.has('delete'))
      return [{ action: 's3:DeleteObject', resource: `arn:aws:s3:::${bucket}/*` }];
    if (method === 'GET' || method === 'HEAD')
      return [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${bucket}` }];
    return [{ action: `s3:${method}Bucket`, resource: `arn:aws:s3:::${bucket}` }];
  }
  const action =
    { GET: 'GetObject', HEAD: 'GetObject', PUT: 'PutObject', DELETE: 'DeleteObject' }[method] ??
    `${method}Object`;
  return [{ action: `s3:${action}`, resource: `arn:aws:s3:::${bucket}/${key}` }];
};

/** Step Functions (JSON 1.0, `AWSStepFunctions.<Operation>`). */
export const classifyStepFunctions: Classify = ({ target, body }) => {
  const input = JSON.parse(body || '{}') as { stateMachineArn?: string };
  return [{ action: `states:${target.split('.')[1]}`, resource: input.stateMachineArn ?? '*' }];
};

/** KMS (JSON 1.1, `TrentService.<Operation>`); a Decrypt that names no key is on the key that sealed the blob. */
export function classifyKms(keyOfBlob: (blob: string) => string | undefined): Classify {
  return ({ target, body }) => {
    const input = JSON.parse(body || '{}') as { KeyId?: string; CiphertextBlob?: string };
    const key = input.KeyId ?? (input.CiphertextBlob ? keyOfBlob(input.CiphertextBlob) : undefined) ?? '*';
    return [{ action: `kms:${target.split('.')[1]}`, resource: key }];
  };
}

/**
 * A pass-through proxy in front of one local part that records, for every request, the principal
 * (the access key id of its SigV4 signature: each function signs with its role's name) and the
 * IAM action and resource the request needs. The request goes on unchanged, Host header
 * included, so signatures and virtual-host addressing still hold.
 */
export async function startRecordingProxy(
  target: string,
  classify: Classify,
  calls: SentCall[],
): Promise<{ endpoint: (host?: string) => string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://proxy');
    const principal =
      /Credential=([^/]+)\//.exec(String(request.headers.authorization ?? ''))?.[1] ?? 'anonymous';
    try {
      for (const call of classify({
        method: request.method ?? 'GET',
        host: String(request.headers.host ?? '').replace(/:\d+$/, ''),
        path: url.pathname,
        query: url.searchParams,
        target: String(request.headers['x-amz-target'] ?? ''),
        body: body.toString('utf8'),
      }))
        calls.push({ principal, ...call });
    } catch (error) {
      calls.push({ principal, action: 'unclassified', resource: String(error) });
    }
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', (error) => {
      response.writeHead(502);
      response.end(String(error));
    });
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: (host = '127.0.0.1') => `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
