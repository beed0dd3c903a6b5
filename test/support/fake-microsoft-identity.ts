import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { loopbackCertificate } from './loopback-certificate.js';

/**
 * A local stand-in for the Microsoft identity platform (v2.0 endpoints of one tenant), written from
 * its OAuth 2.0 device authorization grant and refresh token documentation: OpenID metadata,
 * `/devicecode`, and `/token` for the device-code and refresh-token grants, with AADSTS error
 * bodies. Served over https (MSAL refuses an http authority) with a certificate made by openssl
 * for this run; the test process trusts it (`tls.setDefaultCACertificates`), a child process
 * through `NODE_EXTRA_CA_CERTS=caFile`.
 */

export interface FakeIdentityOptions {
  email: string;
  /** Seconds MSAL waits between polls of a pending device code. @default 1 */
  pollIntervalSeconds?: number;
}

export interface FakeMicrosoftIdentity {
  /** The authority MSAL is given: `https://127.0.0.1:PORT/<tenant>`. */
  authority: string;
  /** The host MSAL must know (`knownAuthorities`). */
  host: string;
  clientId: string;
  /** PEM file of the certificate, for `NODE_EXTRA_CA_CERTS` of a child process. */
  caFile: string;
  /** A refresh token as a completed sign-in would leave, for tests that skip the sign-in. */
  issueRefreshToken(): string;
  isValidAccessToken(token: string): boolean;
  /** Plays the person at microsoft.com/devicelogin: approves (or declines) a shown user code. */
  answerDeviceCode(userCode: string, approve: boolean): void;
  /** How the person answers the browser sign-in page (`/authorize`). @default 'approve' */
  consent: 'approve' | 'deny';
  /** Every token issued so far stops working (an admin revoked the sessions). */
  revokeAll(): void;
  /** One refresh token stops working (it expired). */
  revokeRefreshToken(token: string): void;
  /** Access tokens issued (grants redeemed), for tests that count refreshes. */
  readonly issuedAccessTokens: number;
  close(): Promise<void>;
}

const TENANT = '11111111-2222-3333-4444-555555555555';
const CLIENT_ID = '00001111-aaaa-2222-bbbb-3333cccc4444';
const OID = '99999999-8888-7777-6666-555555555555';

let certificate: Promise<{ dir: string; key: string; cert: string; caFile: string }> | undefined;

/** One self-signed certificate per test process, trusted by this process once made. */
function testCertificate() {
  certificate ??= (async () => {
    const { dir, key, cert, certFile: caFile } = await loopbackCertificate('meridian-msid-');
    setDefaultCACertificates([...getCACertificates('default'), cert]);
    return { dir, key, cert, caFile };
  })();
  return certificate;
}

export async function startFakeMicrosoftIdentity(
  options: FakeIdentityOptions,
): Promise<FakeMicrosoftIdentity> {
  const { key, cert, caFile } = await testCertificate();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const deviceCodes = new Map<string, { userCode: string; answer?: boolean }>();
  const authCodes = new Map<string, { challenge: string; redirectUri: string }>();
  const state = { consent: 'approve' as 'approve' | 'deny' };
  let issued = 0;
  let base = '';

  const tokens = (scope: string) => {
    const access = `eyJ0eXAi.fake-graph-access.${randomBytes(16).toString('hex')}`;
    const refresh = `0.fake-refresh.${randomBytes(16).toString('hex')}`;
    accessTokens.add(access);
    refreshTokens.add(refresh);
    issued += 1;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      aud: CLIENT_ID,
      iss: `${base}/${TENANT}/v2.0`,
      iat: now,
      nbf: now,
      exp: now + 3600,
      name: options.email,
      oid: OID,
      preferred_username: options.email,
      sub: 'fake-subject',
      tid: TENANT,
      ver: '2.0',
    };
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return {
      token_type: 'Bearer',
      scope,
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: access,
      refresh_token: refresh,
      id_token: `${part({ typ: 'JWT', alg: 'none' })}.${part(claims)}.`,
      client_info: part({ uid: OID, utid: TENANT }),
    };
  };
  const failure = (error: string, description: string, code: number) => ({
    status: 400,
    body: {
      error,
      error_description: `AADSTS${code}: ${description}`,
      error_codes: [code],
      timestamp: new Date().toISOString(),
      trace_id: 'fake',
      correlation_id: 'fake',
    },
  });

  const tokenGrant = (form: URLSearchParams): { status: number; body: unknown } => {
    if (form.get('client_id') !== CLIENT_ID)
      return failure(
        'unauthorized_client',
        `Application with identifier '${form.get('client_id')}' was not found.`,
        700016,
      );
    const scope = form.get('scope') ?? '';
    const grant = form.get('grant_type');
    if (grant === 'refresh_token') {
      if (!refreshTokens.has(form.get('refresh_token') ?? ''))
        return failure(
          'invalid_grant',
          'The refresh token has expired or was revoked. The user must sign in again.',
          700082,
        );
      return { status: 200, body: tokens(scope) };
    }
    if (grant === 'device_code' || grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      const pending = deviceCodes.get(form.get('device_code') ?? '');
      if (!pending) return failure('expired_token', 'The device code has expired.', 70020);
      if (pending.answer === undefined)
        return failure('authorization_pending', 'The user has not yet finished authenticating.', 70016);
      deviceCodes.delete(form.get('device_code') ?? '');
      if (!pending.answer) return failure('authorization_declined', 'The user declined the sign-in.', 70000);
      return { status: 200, body: tokens(scope) };
    }
    if (grant === 'authorization_code') {
      const issuedCode = authCodes.get(form.get('code') ?? '');
      authCodes.delete(form.get('code') ?? '');
      const verifier = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (
        !issuedCode ||
        issuedCode.redirectUri !== form.get('redirect_uri') ||
        issuedCode.challenge !== verifier
      )
        return failure('invalid_grant', 'The authorization code or PKCE code verifier is invalid.', 50148);
      return { status: 200, body: tokens(scope) };
    }
    return failure('unsupported_grant_type', `Grant type "${grant}" is not supported.`, 70003);
  };

  const server: Server = createServer({ key, cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const path = url.pathname.replace(/^\/[^/]+/, '');
      if (path === '/v2.0/.well-known/openid-configuration') {
        const root = `${base}/${TENANT}`;
        return send(200, {
          issuer: `${root}/v2.0`,
          authorization_endpoint: `${root}/oauth2/v2.0/authorize`,
          token_endpoint: `${root}/oauth2/v2.0/token`,
          device_authorization_endpoint: `${root}/oauth2/v2.0/devicecode`,
          end_session_endpoint: `${root}/oauth2/v2.0/logout`,
          jwks_uri: `${root}/discovery/v2.0/keys`,
          response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
          scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
          token_endpoint_auth_methods_supported: [
            'client_secret_post',
            'private_key_jwt',
            'client_secret_basic',
          ],
          tenant_region_scope: 'EU',
          cloud_instance_name: 'microsoftonline.com',
        });
      }
      if (path === '/oauth2/v2.0/authorize' && req.method === 'GET') {
        // The sign-in page, answered at once as the person would: a redirect with a code or an error.
        const q = url.searchParams;
        const redirect = new URL(q.get('redirect_uri') ?? '');
        if (q.get('client_id') !== CLIENT_ID || q.get('code_challenge_method') !== 'S256')
          return send(400, failure('invalid_request', 'Unknown application or no PKCE.', 900144).body);
        if (state.consent === 'deny') {
          redirect.searchParams.set('error', 'access_denied');
          redirect.searchParams.set('error_description', 'AADSTS65004: User declined to consent.');
        } else {
          const code = randomBytes(24).toString('base64url');
          authCodes.set(code, {
            challenge: q.get('code_challenge') ?? '',
            redirectUri: q.get('redirect_uri') ?? '',
          });
          redirect.searchParams.set('code', code);
        }
        redirect.searchParams.set('state', q.get('state') ?? '');
        if (q.get('response_mode') === 'form_post') {
          // As Microsoft does: a page whose form posts the answer to the redirect URI.
          const fields = [...redirect.searchParams]
            .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
            .join('');
          redirect.search = '';
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(
            `<html><body onload="document.forms[0].submit()"><form method="POST" action="${redirect.href}">${fields}</form></body></html>`,
          );
          return;
        }
        res.writeHead(302, { location: redirect.href }).end();
        return;
      }
      const form = new URLSearchParams(text);
      if (path === '/oauth2/v2.0/devicecode' && req.method === 'POST') {
        if (form.get('client_id') !== CLIENT_ID)
          return send(400, failure('unauthorized_client', 'Unknown application.', 700016).body);
        const deviceCode = randomBytes(24).toString('base64url');
        const userCode = randomBytes(4).toString('hex').toUpperCase();
        deviceCodes.set(deviceCode, { userCode });
        return send(200, {
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: 'https://microsoft.com/devicelogin',
          expires_in: 900,
          interval: options.pollIntervalSeconds ?? 1,
          message: `To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code ${userCode} to authenticate.`,
        });
      }
      if (path === '/oauth2/v2.0/token' && req.method === 'POST') {
        const answer = tokenGrant(form);
        return send(answer.status, answer.body);
      }
      send(404, { error: 'not_found', error_description: `No route ${req.method} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `https://${host}`;
  return {
    authority: `${base}/${TENANT}`,
    host,
    clientId: CLIENT_ID,
    caFile,
    issueRefreshToken() {
      const refresh = `0.fake-refresh.${randomBytes(16).toString('hex')}`;
      refreshTokens.add(refresh);
      return refresh;
    },
    isValidAccessToken: (token) => accessTokens.has(token),
    answerDeviceCode(userCode, approve) {
      const entry = [...deviceCodes.values()].find((d) => d.userCode === userCode);
      if (!entry) throw new Error(`no pending device code ${userCode}`);
      entry.answer = approve;
    },
    get consent() {
      return state.consent;
    },
    set consent(value) {
      state.consent = value;
    },
    revokeRefreshToken(token) {
      refreshTokens.delete(token);
    },
    revokeAll() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    get issuedAccessTokens() {
      return issued;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Removes the per-process certificate's folder (call from a global teardown if wanted). */
export async function removeTestCertificate(): Promise<void> {
  if (certificate) await rm((await certificate).dir, { recursive: true, force: true });
}
