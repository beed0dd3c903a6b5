import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, meridianExit, startServe } from '../support/cli.js';

/**
 * `meridian smoke URL`, as a person runs it after a deployment, here against `meridian serve`
 * (test/rehearsal runs it against the synthesized stack).
 */
describe('meridian smoke', { timeout: 90_000 }, () => {
  let base: string;
  let server: Awaited<ReturnType<typeof startServe>> | undefined;
  let token: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'meridian-smoke-'));
    const dataDir = join(base, 'data');
    const created = await meridian(['keys', 'create', '--label', 'smoke', '--data-dir', dataDir]);
    token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    server = await startServe(['--data-dir', dataDir]);
  });

  afterAll(async () => {
    await server?.stop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('passes every check against a working server, a line each with its time, and exits 0', async () => {
    const { code, stdout } = await meridianExit(['smoke', server!.url, '--api-key', token]);

    expect(code, stdout).toBe(0);
    const lines = stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line));
    expect(lines.map((line) => /^(?:PASS|FAIL) {2}(.*?) +[\d.]+ m?s /.exec(line)?.[1])).toEqual([
      'health',
      'metadata',
      'time: get_temporal_context',
      'calendar: smoke calendar',
      'availability: check_availability',
      'booking: book_slot',
      'booking: release',
      'rules: smoke project',
      'memory: list_branches',
      'memory: create_snapshot',
    ]);
    for (const line of lines) expect(line).toMatch(/^PASS .* \d+ ms /);
    expect(stdout).toMatch(/smoke passed: 10 passed, 0 failed/);
  });

  it('reuses its calendar and project on the next run, given the base URL instead of /mcp', async () => {
    const { code, stdout } = await meridianExit([
      'smoke',
      server!.url.replace(/\/mcp$/, ''),
      '--api-key',
      token,
    ]);

    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/calendar: smoke calendar .* reused native\//);
    expect(stdout).toMatch(/rules: smoke project .* reused prj_/);
  });

  it('fails, exiting 1, when the key is refused, and runs nothing past the connection', async () => {
    const { code, stdout } = await meridianExit([
      'smoke',
      server!.url,
      '--api-key',
      'mrd_nokey0000000_wrong',
    ]);

    expect(code).toBe(1);
    expect(stdout).toMatch(/^PASS {2}health/m);
    expect(stdout).toMatch(/^FAIL {2}metadata/m);
    expect(stdout).toMatch(/^FAIL {2}booking: book_slot .* not run: no MCP connection/m);
    expect(stdout).toMatch(/smoke FAILED: 1 passed, 9 failed/);
  });

  it('fails on a URL where nothing answers', async () => {
    const { code, stdout } = await meridianExit(['smoke', 'http://127.0.0.1:9/mcp']);

    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL {2}health/m);
  });
});
