/**
 * Sign-in on AWS as `cdk deploy` ships it: the OAuth handler and the MCP handler, each bundled by
 * lib/constructs/lambda-bundling.ts, behind API Gateway events at the host root (REST v1 and HTTP
 * API v2), on one table, with KMS (the rehearsal's fake) for the authorization server's secret.
 * A person signs in with a password and consents through the real pages; the MCP handler then
 * takes the token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { decodeJwt, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import {
  EncryptionSdkEnvelope,
  kmsKeyring,
} from '../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { LocalUsers } from '../../lambdas/core/auth/local-users.js';
import { systemClock } from '../../lambdas/core/ports/index.js';
import { PK_PREFIX } from '../../lambdas/core/storage/key-prefixes.js';
import { loadOrCreateStoredOauthKeys } from '../../lambdas/runtime/oauth/stored-oauth-keys.js';
import {
  inputsLoadedAtStart,
  LAMBDA_ENTRY_NAME,
  lambdaEsbuildOptions,
} from '../../lib/constructs/lambda-bundling.js';
import { MCP_HANDLER_ENTRY } from '../../lib/constructs/mcp-function.js';
import { OAUTH_HANDLER_ENTRY } from '../../lib/constructs/oauth-function.js';
import { type FakeKms, startFakeKms } from '../rehearsal/fake-kms.js';
import { type LambdaFront, type ProxyHandler, startLambdaFront } from '../support/lambda-front.js';
import { callTool, connectHttpClient } from '../support/mcp-client.js';
import { authorizeOverHttp, pkcePair, registerClient, tokenRequest } from '../support/oauth-http-flow.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/11111111-2222-3333-4444-555555555555';
const PERSON = { name: 'ada', password: 'correct horse battery staple' };
const outDirs = {
  oauth: mkdtempSync(join(tmpdir(), 'meridian-oauth-bundle-')),
  mcp: mkdtempSync(join(tmpdir(), 'meridian-mcp-bundle-')),
};

let dynalite: Awaited<ReturnType<typeof startDynalite>>;
let runtime: TestRuntime;
let kms: FakeKms;
let front: LambdaFront;
let mcpMetafile: Metafile;
const handlers: { oauth?: ProxyHandler; mcp?: ProxyHandler } = {};

async function bundle(entry: string, outdir: string): Promise<Metafile> {
  return (await build({ ...lambdaEsbuildOptions(entry, outdir), metafile: true })).metafile;
}

async function importBundle(outdir: string): Promise<ProxyHandler> {
  const module = (await import(
    /* @vite-ignore */ pathToFileURL(join(outdir, `${LAMBDA_ENTRY_NAME}.mjs`)).href
  )) as {
    handler: ProxyHandler;
  };
  return module.handler;
}

const OAUTH_PATHS = /^\/(oauth\/|\.well-known\/(openid-configuration|oauth-authorization-server)$)/;

beforeAll(async () => {
  const [, metafile] = await Promise.all([
    bundle(OAUTH_HANDLER_ENTRY, outDirs.oauth),
    bundle(MCP_HANDLER_ENTRY, outDirs.mcp),
  ]);
  mcpMetafile = metafile;
  dynalite = await startDynalite();
  runtime = await startTestRuntime({ endpoint: dynalite.endpoint });
  kms = await startFakeKms([KEY_ARN]);
  // The front door routes the authorization server's paths to its function, the rest to MCP.
  front = await startLambdaFront([
    { path: (path) => OAUTH_PATHS.test(path), handler: () => handlers.oauth! },
    { path: () => true, handler: () => handlers.mcp! },
  ]);
  Object.assign(process.env, {
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    MERIDIAN_TABLE_NAME: runtime.tableName,
    MERIDIAN_DATA_KEY_ARN: KEY_ARN,
    MERIDIAN_BOOKING_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:meridian-booking',
    MERIDIAN_PUBLIC_URL: front.url,
    MERIDIAN_OAUTH_TOKENS: 'on',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
    AWS_ENDPOINT_URL_KMS: kms.endpoint,
  });
  handlers.oauth = await importBundle(outDirs.oauth);
  handlers.mcp = await importBundle(outDirs.mcp);
  await new LocalUsers({ store: runtime.store, clock: runtime.clock }).add(PERSON.name, PERSON.password);
}, 120_000);

afterAll(async () => {
  await front?.close();
  await kms?.close();
  await runtime?.close();
  await dynalite?.close();
  for (const dir of Object.values(outDirs)) rmSync(dir, { recursive: true, force: true });
});

/** Signs ada in through the pages and answers the token response. */
async function signIn(): Promise<{ access_token: string; refresh_token?: string }> {
  const flow = await authorizeOverHttp(front.url, {
    person: PERSON,
    scope: 'toolset:time',
    resource: `${front.url}/mcp`,
  });
  expect(flow.callback.get('iss')).toBe(front.url);
  const token = await tokenRequest(front.url, {
    grant_type: 'authorization_code',
    code: flow.callback.get('code')!,
    redirect_uri: flow.redirectUri,
    client_id: flow.clientId,
    code_verifier: flow.verifier,
    resource: `${front.url}/mcp`,
  });
  expect(token.status).toBe(200);
  return (await token.json()) as { access_token: string };
}

/** A tools/call straight at /mcp with a bearer, as the transport sees it. */
function toolsCall(bearer: string): Promise<Response> {
  return fetch(`${front.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_temporal_context', arguments: {} },
    }),
  });
}

describe('the bundled MCP handler with sign-in deployed', () => {
  it('keeps the token check out of a cold start: an API key never loads jose or the public key', () => {
    const loaded = inputsLoadedAtStart(mcpMetafile);

    expect(loaded).toEqual(
      expect.arrayContaining([expect.stringMatching(/lambdas\/runtime\/aws-oauth-tokens\.ts$/)]),
    );
    for (const pattern of [
      /node_modules\/jose\//,
      /jwt-token-verifier\.ts$/,
      /stored-oauth-key-item\.ts$/,
      /oidc-provider/,
    ])
      expect(loaded.filter((input) => pattern.test(input))).toEqual([]);
  });
});

for (const format of ['v1', 'v2'] as const) {
  describe(`sign-in on AWS through API Gateway ${format} events`, () => {
    beforeAll(() => {
      front.format = format;
    });

    it('answers both discovery documents with the issuer MERIDIAN_PUBLIC_URL and PKCE S256', async () => {
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const response = await fetch(`${front.url}${path}`);
        const metadata = (await response.json()) as Record<string, unknown>;

        expect(response.status, path).toBe(200);
        expect(metadata.issuer).toBe(front.url);
        expect(metadata.token_endpoint).toBe(`${front.url}/oauth/token`);
        expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
      }
      const resource = await fetch(`${front.url}/.well-known/oauth-protected-resource/mcp`);
      expect(await resource.json()).toMatchObject({
        resource: `${front.url}/mcp`,
        authorization_servers: [front.url],
      });
    });

    it('carries a redirect and every Set-Cookie of one answer through the event', async () => {
      const registered = await registerClient(front.url, {
        client_name: 'cookie check',
        redirect_uris: ['http://127.0.0.1:9/callback'],
        application_type: 'native',
      });
      expect(registered.status).toBe(201);
      const { client_id } = (await registered.json()) as { client_id: string };
      const query = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: 'http://127.0.0.1:9/callback',
        scope: 'toolset:time',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });

      const response = await fetch(`${front.url}/oauth/authorize?${query}`, { redirect: 'manual' });

      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/^\/oauth\/interaction\//);
      // The interaction cookie and its signature, and the resume cookie and its signature.
      const cookies = response.headers.getSetCookie().map((line) => line.split('=')[0]);
      expect(cookies).toEqual(
        expect.arrayContaining([
          '_interaction',
          '_interaction.sig',
          '_interaction_resume',
          '_interaction_resume.sig',
        ]),
      );
    });

    it('registers a client, signs a person in with a password, and the MCP handler takes the token', async () => {
      const { access_token } = await signIn();

      const client = await connectHttpClient(`${front.url}/mcp`, undefined, {
        authorization: `Bearer ${access_token}`,
      });
      try {
        const result = await callTool(client, 'get_temporal_context', {});
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toHaveProperty('utc');
      } finally {
        await client.close();
      }
      // The OAuth function keeps the audit log as the other functions do.
      const { items } = await runtime.store.query({
        partition: `${PK_PREFIX.audit}${new Date().toISOString().slice(0, 10)}`,
      });
      expect(items.map((item) => item.action)).toEqual(
        expect.arrayContaining(['oauth client register', 'oauth sign-in', 'oauth consent grant']),
      );
    });

    it('refuses a tampered token and an expired one with 401 and the challenge', async () => {
      const { access_token } = await signIn();
      const [head, body, signature] = access_token.split('.');
      const tampered = `${head}.${body}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
      // The same claims signed with the stored key (read through KMS as the OAuth function reads it).
      const keys = await loadOrCreateStoredOauthKeys({
        store: runtime.store,
        encryption: new EncryptionSdkEnvelope(kmsKeyring(KEY_ARN)),
        clock: systemClock,
      });
      const signWith = async (exp: number) =>
        new SignJWT({ ...decodeJwt(access_token), exp, iat: exp - 300 })
          .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: keys.signingJwk.kid })
          .sign(await importJWK(keys.signingJwk as never, 'EdDSA'));
      const now = Math.floor(Date.now() / 1000);

      // Re-signed and still valid, it is taken: what differs below is only the expiry or the signature.
      expect((await toolsCall(await signWith(now + 120))).status).toBe(200);
      for (const refused of [tampered, await signWith(now - 120)]) {
        const response = await toolsCall(refused);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toContain(
          `resource_metadata="${front.url}/.well-known/oauth-protected-resource/mcp"`,
        );
        expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
    });

    it('keeps API keys working beside tokens', async () => {
      const { token } = await runtime.newKey('api key beside sign-in');

      expect((await toolsCall(token)).status).toBe(200);
      expect((await toolsCall('mrd_not-a-key')).status).toBe(401);
    });
  });
}
