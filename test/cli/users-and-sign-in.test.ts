import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { authorizeOverHttp, listToolsWithBearer, redeemCode } from '../support/oauth-http-flow.js';

/** `meridian …` with `input` on stdin; resolves with its output and exit code. */
function meridianWithInput(args: string[], input: string) {
  return new Promise<{ stdout: string; stderr: string; code: number | null }>((resolvePromise) => {
    const child = spawn(process.execPath, ['bin/meridian.mjs', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => resolvePromise({ stdout, stderr, code }));
    child.stdin.end(input);
  });
}

/**
 * A person added with the CLI signs in to a running `meridian serve` (its own authorization
 * server), and the token it issues works at /mcp beside API keys.
 */
describe('meridian users with a running server', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-users-'));
    server = await startServe(['--data-dir', dataDir]);
    base = new URL(server.url).origin;
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the protected-resource metadata and the OAuth challenge, with its key file private', async () => {
    const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    const challenge = await fetch(`${base}/mcp`, { method: 'POST', body: '{}' });

    expect(metadata).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect((await stat(join(dataDir, 'oauth.key'))).mode & 0o777).toBe(0o600);
  });

  it('adds a person whose password comes on stdin, who then signs in and gets a working token', async () => {
    const added = await meridianWithInput(
      ['users', 'add', 'alice', '--data-dir', dataDir],
      'a long enough secret\n',
    );
    expect(added.code).toBe(0);
    expect((await meridian(['users', 'list', '--data-dir', dataDir])).stdout).toMatch(/^alice {2}added /m);

    const flow = await authorizeOverHttp(base, {
      person: { name: 'alice', password: 'a long enough secret' },
      scope: 'toolset:time',
      resource: `${base}/mcp`,
    });
    const tokens = await redeemCode(base, flow);
    const listed = await listToolsWithBearer(`${base}/mcp`, tokens.access_token);

    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).toContain('get_temporal_context');
    expect((await meridian(['keys', 'list', '--data-dir', dataDir])).stdout).toContain(
      'oauth: HTTP test for alice',
    );
  });

  it('refuses a second person of the same name, and a short password, saying what to do', async () => {
    const again = await meridianWithInput(
      ['users', 'add', 'alice', '--data-dir', dataDir],
      'another long secret',
    );
    const short = await meridianWithInput(['users', 'add', 'bob', '--data-dir', dataDir], 'short');

    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('A user named "alice" exists');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('shorter than 8 characters');
  });

  it('removes a person and revokes their consents, audited, so their tokens stop working; then they cannot sign in', async () => {
    const flow = await authorizeOverHttp(base, {
      person: { name: 'alice', password: 'a long enough secret' },
      scope: 'toolset:time',
      resource: `${base}/mcp`,
    });
    const { access_token } = await redeemCode(base, flow);
    const listTools = () => listToolsWithBearer(`${base}/mcp`, access_token);
    expect((await listTools()).status).toBe(200);
    const consents = (await meridian(['keys', 'list', '--data-dir', dataDir])).stdout
      .split('\n')
      .filter((line) => line.includes('oauth: HTTP test for alice'))
      .map((line) => line.trim().split(/\s+/)[0]!);
    expect(consents).toHaveLength(2);

    const removed = await meridian(['users', 'remove', 'alice', '--data-dir', dataDir]);

    expect(removed.stdout).toContain('revoked their 2 consent(s)');
    expect((await listTools()).status).toBe(401);
    const audit = (await meridian(['audit', 'list', '--data-dir', dataDir])).stdout;
    const removal = audit.split('\n').find((line) => line.includes('users remove'));
    expect(removal).toContain('ok');
    for (const keyId of consents) expect(removal).toContain(keyId);
    expect(audit).toMatch(/user:alice\s+oauth consent grant\s+ok/);
    expect(audit).toMatch(/anonymous\s+oauth client register\s+ok/);

    await expect(
      authorizeOverHttp(base, {
        person: { name: 'alice', password: 'a long enough secret' },
        scope: 'toolset:time',
        resource: `${base}/mcp`,
      }),
    ).rejects.toThrow();
    expect((await meridian(['users', 'list', '--data-dir', dataDir])).stdout).toContain('No users');
  });
});
