import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../lambdas/mcp/http/body-limit.js';
import { lambdaContext, restProxyEvent } from '../support/lambda-fetch.js';
import { type LoadedLambdaHandler, loadLambdaHandler } from './lambda-target.js';

const API_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/mcp';
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

describe('Lambda handler behind API Gateway: events a client can shape', () => {
  let lambda: LoadedLambdaHandler;
  let token: string;

  beforeAll(async () => {
    lambda = await loadLambdaHandler(() => import('../../lambdas/handlers/mcp-http.js'));
    ({ token } = await lambda.runtime.newKey('lambda-events'));
  });

  afterAll(async () => {
    await lambda?.close();
  });

  function mcpEvent(headers: Record<string, string>, body: string): APIGatewayProxyEvent {
    return restProxyEvent({
      method: 'POST',
      url: new URL(API_URL),
      headers: {
        host: 'abc123.execute-api.eu-west-1.amazonaws.com',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body,
    });
  }

  async function invoke(event: APIGatewayProxyEvent) {
    const errorsBefore = lambda.loggedErrors();
    const result = await lambda.handler(event, lambdaContext());
    return { ...result, body: JSON.parse(result.body), loggedErrors: lambda.loggedErrors() - errorsBefore };
  }

  it('answers a base64 body as the body it encodes', async () => {
    const event = { ...mcpEvent({}, Buffer.from(PING).toString('base64')), isBase64Encoded: true };

    const result = await invoke(event);

    expect(result.statusCode).toBe(200);
    expect(result.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers a base64 body that decodes to no JSON with a parse error, not a fault', async () => {
    const event = { ...mcpEvent({}, '!!not*base64~~'), isBase64Encoded: true };

    const result = await invoke(event);

    expect(result.statusCode).toBe(400);
    expect(result.body).toMatchObject({ error: { code: -32700 } });
    expect(result.loggedErrors).toBe(0);
  });

  it('refuses a body over the limit with 413, as meridian serve does', async () => {
    const padded = `${PING}${' '.repeat(MAX_BODY_BYTES)}`;

    const result = await invoke(mcpEvent({}, padded));

    expect(result.statusCode).toBe(413);
    expect(result.body).toEqual({ error: `Request body exceeds ${MAX_BODY_BYTES} bytes.` });
  });

  it('counts a base64 body over the limit by what it decodes to', async () => {
    const encoded = Buffer.from(`${PING}${' '.repeat(MAX_BODY_BYTES)}`).toString('base64');

    const result = await invoke({ ...mcpEvent({}, encoded), isBase64Encoded: true });

    expect(result.statusCode).toBe(413);
  });

  it.each([
    ['a header value no HTTP header may carry', { 'x-note': 'price in €' }],
    ['a Host that is no host name', { host: 'two words' }],
  ])('answers %s with 400, not a server fault', async (_, headers) => {
    const result = await invoke(mcpEvent(headers, PING));

    expect(result.statusCode).toBe(400);
    expect(result.body).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/^Bad request/) },
    });
    expect(result.loggedErrors).toBe(0);
  });
});
