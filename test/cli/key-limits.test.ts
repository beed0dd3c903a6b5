import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';

/** One tools/call over HTTP; the status says whether the limit let it through. */
async function listCalendars(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_calendars', arguments: {} },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

// Each step spawns a fresh CLI process (about 2 s each on a loaded 2-core machine).
describe('meridian keys limits, against a running serve', { timeout: 90_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let token: string;
  let keyId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-limits-'));
    // The server's budget from the environment: more than this test spends.
    server = await startServe(['--data-dir', dataDir], { MERIDIAN_RATE_LIMIT: '50/min' });
    const created = await meridian(['keys', 'create', '--label', 'agent', '--data-dir', dataDir]);
    token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    keyId = token.split('_')[1]!;
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("gives one key a budget of its own, shown in keys list, and back to the server's with default", async () => {
    const set = await meridian(['keys', 'limits', keyId, 'requests=2/min', '--data-dir', dataDir]);
    expect(set.stdout).toContain('limits requests=2/60s');
    expect((await meridian(['keys', 'list', '--data-dir', dataDir])).stdout).toContain(
      'limits requests=2/60s',
    );

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await listCalendars(`${server.url}`, token));
    expect(statuses).toEqual([200, 200, 429]);

    await meridian(['keys', 'limits', keyId, 'default', '--data-dir', dataDir]);
    expect((await meridian(['keys', 'list', '--data-dir', dataDir])).stdout).toContain('server limits');
    expect(await listCalendars(`${server.url}`, token)).toBe(200);
  });

  it('refuses a rate it cannot read, saying how to write one', async () => {
    const refused = await meridian(['keys', 'limits', keyId, 'requests=lots', '--data-dir', dataDir]).catch(
      (error: { stderr: string }) => error,
    );
    expect('stderr' in refused && refused.stderr).toMatch(/COUNT\/PERIOD/);
  });
});
