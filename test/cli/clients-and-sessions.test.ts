import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridianExit, meridianWithInput, startServe } from '../support/cli.js';
import {
  authorizeOverHttp,
  HttpSignIn,
  listToolsWithBearer,
  redeemCode,
  registerClient,
  tokenRequest,
} from '../support/oauth-http-flow.js';

const PASSWORD = 'a long enough secret';

/*
 * `meridian clients` and `meridian sessions` on the data dir of a running `meridian serve`, after
 * real sign-ins through its pages: what they list, and that revoking stops the access token at its
 * next request and leaves the refresh token worthless.
 */
describe('meridian clients and sessions', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let base: string;
  const cli = (...args: string[]) => meridianExit([...args, '--data-dir', dataDir]);

  /** Signs alice in through the pages (a new DCR client unless `clientId`) and redeems the code. */
  async function signIn(clientId?: string) {
    const flow = await authorizeOverHttp(base, {
      person: { name: 'alice', password: PASSWORD },
      scope: 'toolset:time',
      resource: `${base}/mcp`,
      ...(clientId ? { clientId } : {}),
    });
    const tokens = await redeemCode(base, flow);
    return { clientId: flow.clientId, ...tokens };
  }

  const listTools = (token: string) => listToolsWithBearer(`${base}/mcp`, token);

  const refresh = (clientId: string, refreshToken: string) =>
    tokenRequest(base, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  /** The session ids `sessions list` prints for a client. */
  async function sessionsOf(clientId: string): Promise<string[]> {
    const { stdout } = await cli('sessions', 'list');
    return stdout
      .split('\n')
      .filter((line) => line.includes(`  ${clientId}  `))
      .map((line) => line.split('  ')[0]!);
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-sessions-'));
    server = await startServe(['--data-dir', dataDir]);
    base = new URL(server.url).origin;
    const added = await meridianWithInput(['users', 'add', 'alice', '--data-dir', dataDir], PASSWORD);
    expect(added.code).toBe(0);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists a sign-in as a session of its person and its client, and each client with its consent count', async () => {
    const { clientId } = await signIn();
    const unused = (await (
      await registerClient(base, { client_name: 'Unused', redirect_uris: ['http://127.0.0.1:9/cb'] })
    ).json()) as { client_id: string };

    const sessions = await cli('sessions', 'list', '--user', 'alice');
    const clients = await cli('clients', 'list');
    const nobody = await cli('sessions', 'list', '--user', 'bob');

    const line = sessions.stdout.split('\n').find((l) => l.includes(clientId));
    expect(line).toMatch(
      /^\S+ {2}alice {2}\S+ {2}toolsets time {2}no grants {2}created \S+ {2}last refresh \d{4}-/,
    );
    expect(clients.stdout).toMatch(
      new RegExp(
        `^${clientId} {2}"HTTP test" {2}registered {2}redirects 127\\.0\\.0\\.1:9 {2}created \\S+ {2}1 consent\\(s\\)$`,
        'm',
      ),
    );
    expect(clients.stdout).toMatch(
      new RegExp(`^${unused.client_id} {2}"Unused" {2}registered .* 0 consent\\(s\\)$`, 'm'),
    );
    expect(nobody.stdout).toContain('bob has no sessions.');
  });

  it('revokes one session, audited: its access token gets 401 at the next request and its refresh token is refused', async () => {
    const first = await signIn();
    const [firstSession] = await sessionsOf(first.clientId);
    const second = await signIn(first.clientId);
    expect((await listTools(first.access_token)).status).toBe(200);

    const revoked = await cli('sessions', 'revoke', firstSession!);

    expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: '' });
    expect((await listTools(first.access_token)).status).toBe(401);
    const refused = await refresh(first.clientId, first.refresh_token);
    expect({ status: refused.status, body: await refused.json() }).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // The other session of the same client and person goes on.
    expect((await listTools(second.access_token)).status).toBe(200);
    const remaining = await sessionsOf(first.clientId);
    expect(remaining).toHaveLength(1);
    expect(remaining).not.toContain(firstSession);
    const audit = (await cli('audit', 'list')).stdout.split('\n').find((l) => l.includes('sessions revoke'));
    expect(audit).toContain('ok');
    expect(audit).toContain(firstSession);
  });

  it('revokes a client: every session of it ends, and it can start no new sign-in', async () => {
    const signedIn = await signIn();
    expect((await listTools(signedIn.access_token)).status).toBe(200);

    const revoked = await cli('clients', 'revoke', signedIn.clientId);

    expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain('its 1 session(s) ended');
    expect((await listTools(signedIn.access_token)).status).toBe(401);
    // The client itself is gone: its refresh token is refused with the client.
    const refused = await refresh(signedIn.clientId, signedIn.refresh_token);
    expect({ status: refused.status, body: await refused.json() }).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    await expect(signIn(signedIn.clientId)).rejects.toThrow(/no redirect to the client|no form on the page/);
    expect((await cli('clients', 'list')).stdout).toMatch(
      new RegExp(`^${signedIn.clientId} .* REVOKED `, 'm'),
    );
    expect((await cli('audit', 'list')).stdout).toMatch(/clients revoke.*ok/);
  });

  it('opens /oauth/admin to a person only once `users admin NAME on` made them an administrator', async () => {
    /** A browser without script: the admin page, its sign-in page, the answer it lands on. */
    const openAdminPage = async () => {
      const browser = new HttpSignIn(base);
      const signInPage = await browser.follow(await browser.request('/oauth/admin'));
      return browser.follow(await browser.submit(signInPage, { username: 'alice', password: PASSWORD }));
    };
    const before = await openAdminPage();

    const [made, unknown] = await Promise.all([
      cli('users', 'admin', 'alice', 'on'),
      cli('users', 'admin', 'nobody', 'on'),
    ]);
    const after = await openAdminPage();

    expect(before.status).toBe(403);
    expect({ code: made.code, stdout: made.stdout }).toEqual({
      code: 0,
      stdout: 'alice is an administrator: they may use /oauth/admin on `meridian serve`.\n',
    });
    expect(unknown.stderr).toContain('No user named "nobody"');
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('<h1>Meridian administration</h1>');
  });

  it('says what to run for an unknown id and how to call it for a wrong command line; refuses a metadata-document URL ahead', async () => {
    const [unknownSession, unknownClient, missing, aheadOfTime, dashSession, dashClient] = await Promise.all([
      cli('sessions', 'revoke', 'no-such-session'),
      cli('clients', 'revoke', 'no-such-client'),
      cli('clients', 'revoke'),
      cli('clients', 'revoke', 'https://connector.example/client.json'),
      // Ids are URL-safe base64: one in 64 begins with "-", and is an id all the same.
      cli('sessions', 'revoke', '-Qno-such-session'),
      cli('clients', 'revoke', '--no-such-client'),
    ]);

    expect(unknownSession.code).not.toBe(0);
    expect(unknownSession.stderr).toContain('No session "no-such-session"');
    expect(unknownSession.stderr).toContain('meridian sessions list');
    expect(unknownClient.stderr).toContain(
      'No client "no-such-client". List them with `meridian clients list`',
    );
    expect(dashSession.stderr).toContain('No session "-Qno-such-session"');
    expect(dashClient.stderr).toContain('No client "--no-such-client"');
    expect(missing.stderr).toContain('clients revoke needs one CLIENT_ID');
    expect(missing.stderr).toContain('Usage: meridian clients list | clients revoke CLIENT_ID');
    // A metadata-document client is known by its URL: it can be refused before anyone signs in with it.
    expect(aheadOfTime.stdout).toContain(
      'Revoked client https://connector.example/client.json: it can start no new sign-in',
    );
  });
});
