import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';

/** One create_project over HTTP, with our request id; true when the server acknowledged the write. */
async function createProject(url: string, token: string, requestId: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2025-06-18',
        'x-request-id': requestId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_project', arguments: { name: `Project ${requestId}` } },
      }),
    });
    const answer = (await response.json()) as { result?: { isError?: boolean } };
    return response.status === 200 && answer.result !== undefined && !answer.result.isError;
  } catch {
    // The server died with the request open: not acknowledged.
    return false;
  }
}

describe('kill -9 of meridian serve during a burst of writes', { timeout: 240_000 }, () => {
  let dataDir: string | undefined;

  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves no acknowledged write without its audit record, and a chain that verifies', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-audit-crash-'));
    const created = await meridian(['keys', 'create', '--label', 'burst', '--data-dir', dataDir]);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    const server = await startServe(['--data-dir', dataDir], { MERIDIAN_RATE_LIMIT: 'off' });

    // Eight writers in a loop; the process is killed while they run.
    const acknowledged: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      for (let n = 0; !stop; n++) {
        const requestId = `crash-${writer}-${n}`;
        if (await createProject(server.url, token, requestId)) acknowledged.push(requestId);
        else if (stop) return;
      }
    });
    while (acknowledged.length < 20) await sleep(50);
    process.kill(server.pid, 'SIGKILL');
    stop = true;
    await Promise.all(writers);
    await server.stop();

    const exported = (await meridian(['audit', 'export', '--data-dir', dataDir])).stdout.trim().split('\n');
    const records = exported.map(
      (line) => JSON.parse(line) as { request_id: string; action: string; status: string },
    );
    const recorded = new Map(records.map((record) => [record.request_id, record]));
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    const missing = acknowledged.filter((id) => !recorded.has(id));
    expect(missing).toEqual([]);
    // Acknowledged means completed: the completion is written before the answer.
    expect(acknowledged.filter((id) => recorded.get(id)?.status !== 'completed')).toEqual([]);

    const verified = await meridian(['audit', 'verify', '--data-dir', dataDir]);
    expect(verified.stdout).toMatch(/chain intact/);
  });
});
