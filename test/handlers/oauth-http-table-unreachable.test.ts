import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../support/lambda-fetch.js';

/**
 * With its table out of reach, the OAuth function answers the fault itself — a JSON 500 in OAuth's
 * terms, nothing of its cause — as the MCP function does (internal-error.ts), rather than failing
 * the invocation, which API Gateway answers 502 or with its bare 500.
 */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body?: string }>;
let handler: Handler;

const savedEnvironment = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnvironment)) delete process.env[name];
  Object.assign(process.env, savedEnvironment);
});

beforeAll(async () => {
  const endpoint = `http://127.0.0.1:${await closedPort()}`;
  Object.assign(process.env, {
    POWERTOOLS_LOG_LEVEL: 'CRITICAL',
    MERIDIAN_TABLE_NAME: 'meridian-unreachable',
    MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/11111111-2222-3333-4444-555555555555',
    MERIDIAN_BOOKING_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:meridian-booking',
    MERIDIAN_PUBLIC_URL: 'https://mcp.example.com',
    MERIDIAN_OAUTH_TOKENS: 'on',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_ENDPOINT_URL_KMS: endpoint,
  });
  ({ handler } = (await import('../../lambdas/handlers/oauth-http.js')) as unknown as { handler: Handler });
});

describe('the OAuth Lambda handler with its table out of reach', () => {
  it('answers a JSON error itself rather than failing the invocation', async () => {
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/oauth/jwks',
      rawQueryString: '',
      headers: { host: 'abc.execute-api.eu-west-1.amazonaws.com' },
      requestContext: {
        http: {
          method: 'GET',
          path: '/oauth/jwks',
          protocol: 'HTTP/1.1',
          sourceIp: '203.0.113.9',
          userAgent: '',
        },
        requestId: 'r',
        routeKey: '$default',
        stage: '$default',
      },
      isBase64Encoded: false,
    };

    const outcome = await handler(event, lambdaContext()).then(
      (result) => ({ answered: result.statusCode, error: JSON.parse(result.body ?? '{}').error }),
      (error: unknown) => ({ threw: String(error) }),
    );

    expect(outcome).toEqual({ answered: 500, error: 'server_error' });
  }, 30_000);
});
