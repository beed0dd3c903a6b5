import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_CLAIM, JwtTokenVerifier } from '../../../lambdas/adapters/oauth/jwt-token-verifier.js';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { type RunningHttpServer, startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { connectHttpClient, okTool } from '../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/*
 * Meridian as an OAuth protected resource, over HTTP: the metadata documents, the challenges and
 * the bearer check. Tokens are signed here with a key the server trusts (and one it does not);
 * the whole sign-in that issues real ones is test/runtime/oauth/sign-in-browser.test.ts.
 */

const SCOPES = [
  'toolset:time',
  'toolset:calendar',
  'toolset:availability',
  'toolset:rules',
  'toolset:memory',
];

let runtime: TestRuntime;
let server: RunningHttpServer;
let mcpUrl: string;
let issuer: string;
let trustedKey: CryptoKey;
let otherKey: CryptoKey;
let consentId: string;

async function token(
  claims: Record<string, unknown>,
  options: {
    key?: CryptoKey;
    issuer?: string;
    audience?: string;
    expiresIn?: string | number;
    typ?: string;
  } = {},
) {
  return new SignJWT({ [CONSENT_CLAIM]: consentId, scope: 'toolset:time', ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: options.typ ?? 'at+jwt', kid: 'k1' })
    .setIssuer(options.issuer ?? issuer)
    .setAudience(options.audience ?? mcpUrl)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(options.key ?? trustedKey);
}

function post(body: unknown, headers: Record<string, string> = {}, query = '') {
  return fetch(`${mcpUrl}${query}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

beforeAll(async () => {
  runtime = await startTestRuntime();
  const trusted = await generateKeyPair('ES256', { extractable: true });
  trustedKey = trusted.privateKey;
  otherKey = (await generateKeyPair('ES256')).privateKey;
  const publicJwk: JWK = { ...(await exportJWK(trusted.publicKey)), kid: 'k1', alg: 'ES256' };
  consentId = (await runtime.access.createKey('oauth: test client for alice', { toolsets: ['time'] })).key_id;
  let base = '';
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    logger: runtime.logger,
    handle: (request) =>
      routeHttpRequest(request, {
        ...runtime,
        tokenVerifier: new JwtTokenVerifier({
          keys: createLocalJWKSet({ keys: [publicJwk] }),
          issuer: base,
          audience: `${base}/mcp`,
          access: runtime.access,
          apiKeys: runtime.access,
        }),
        protectedResource: { resource: `${base}/mcp`, authorizationServers: [base], scopesSupported: SCOPES },
      }),
  });
  base = server.url;
  issuer = base;
  mcpUrl = `${base}/mcp`;
});

afterAll(async () => {
  await server?.close();
  await runtime?.close();
});

describe('protected resource metadata', () => {
  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    'serves the document at %s, readable from any origin',
    async (path) => {
      const response = await fetch(`${server.url}${path}`, { headers: { origin: 'https://claude.ai' } });

      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({
        resource: mcpUrl,
        authorization_servers: [server.url],
        scopes_supported: SCOPES,
        bearer_methods_supported: ['header'],
      });
    },
  );
});

describe('challenges', () => {
  it('answers a request without a token 401 naming the absolute metadata URL and every scope', async () => {
    const response = await post(LIST_TOOLS);

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="${SCOPES.join(' ')}"`,
    );
    expect(response.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/i);
  });

  it('asks only for the scopes of the toolsets the connection chose', async () => {
    const response = await post(LIST_TOOLS, {}, '?toolsets=time,memory');

    expect(response.headers.get('www-authenticate')).toContain('scope="toolset:time toolset:memory"');
  });

  it('answers 403 insufficient_scope naming every scope the connection needs', async () => {
    const response = await post(
      LIST_TOOLS,
      { authorization: `Bearer ${await token({})}` },
      '?toolsets=time,calendar,memory',
    );

    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(response.headers.get('www-authenticate')).toContain(
      'scope="toolset:time toolset:calendar toolset:memory"',
    );
  });
});

describe('bearer tokens', () => {
  it('admits a valid token with the consented toolsets only', async () => {
    const client = await connectHttpClient(mcpUrl, undefined, { authorization: `Bearer ${await token({})}` });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);

      expect(names).toContain('get_temporal_context');
      expect(names).not.toContain('list_calendars');
      expect(await okTool(client, 'get_temporal_context', {})).toHaveProperty('utc');
    } finally {
      await client.close();
    }
  });

  it('admits a valid token in the 2026-07-28 era too', async () => {
    const client = await connectHttpClient(
      mcpUrl,
      undefined,
      { authorization: `Bearer ${await token({})}` },
      'modern',
    );
    try {
      expect(await okTool(client, 'get_temporal_context', {})).toHaveProperty('utc');
    } finally {
      await client.close();
    }
  });

  it.each([
    ['another audience', { audience: 'http://127.0.0.1:1/mcp' }],
    ['another issuer', { issuer: 'https://issuer.example.com' }],
    ['an expired one', { expiresIn: Math.floor(Date.now() / 1000) - 60 }],
    ['one signed with another key', { key: 'other' }],
    ['an ID token (typ JWT)', { typ: 'JWT' }],
  ] as const)('refuses %s with 401 invalid_token and the challenge', async (_name, options) => {
    const { key, ...rest } = options as { key?: string } & Record<string, unknown>;
    const bad = await token({}, { ...rest, ...(key ? { key: otherKey } : {}) });

    const response = await post(LIST_TOOLS, { authorization: `Bearer ${bad}` });

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="[^"]+", error="invalid_token"$/,
    );
  });

  it('refuses a token whose consent was revoked', async () => {
    const revoked = (await runtime.access.createKey('oauth: revoked', { toolsets: ['time'] })).key_id;
    const bad = await token({ [CONSENT_CLAIM]: revoked });
    expect((await post(LIST_TOOLS, { authorization: `Bearer ${bad}` })).status).toBe(200);

    await runtime.access.revokeKey(revoked);

    expect((await post(LIST_TOOLS, { authorization: `Bearer ${bad}` })).status).toBe(401);
  });

  it('keeps admitting API keys beside tokens, with their own toolsets', async () => {
    const { token: apiKey } = await runtime.newKey('agent');
    const client = await connectHttpClient(mcpUrl, undefined, { authorization: `Bearer ${apiKey}` });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);

      expect(names).toContain('list_calendars');
    } finally {
      await client.close();
    }
  });
});
