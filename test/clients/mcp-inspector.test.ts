import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callEveryToolset } from '../mcp/toolset-calls.js';
import { meridian, startServe } from '../support/cli.js';
import { type InspectorTarget, startInspector } from '../support/mcp-inspector.js';
import { NODE_22, needs } from '../support/system-parts.js';

/**
 * The MCP Inspector CLI, an MCP client Meridian's code has no part in, against `meridian serve`
 * over HTTP and `meridian stdio`. It takes one method per run (a process of ~2.5 s on an idle
 * machine; no batching), so the runs below go concurrently.
 */
describe('the MCP Inspector CLI', needs(NODE_22), () => {
  let dataDir: string;
  let stdioDataDir: string;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-inspector-serve-'));
    stdioDataDir = await mkdtemp(join(tmpdir(), 'meridian-inspector-stdio-'));
    const { stdout } = await meridian(['keys', 'create', '--label', 'inspector', '--data-dir', dataDir]);
    token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(stdout)?.[0] ?? '';
    expect(token).not.toBe('');
    serve = await startServe(['--data-dir', dataDir]);
  });

  afterAll(async () => {
    await serve?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(stdioDataDir, { recursive: true, force: true });
  });

  const targets: Record<'HTTP (meridian serve)' | 'stdio (meridian stdio)', () => InspectorTarget> = {
    'HTTP (meridian serve)': () => ({ url: serve.url, token }),
    'stdio (meridian stdio)': () => ({
      command: process.execPath,
      args: [resolve('bin/meridian.mjs'), 'stdio'],
      env: { MERIDIAN_DATA_DIR: stdioDataDir, MERIDIAN_TIMEZONE: 'UTC' },
    }),
  };

  /**
   * Over HTTP in both eras; over stdio in 2026-07-28 only, where every run also starts a server
   * (the SDK's Client covers both eras over stdio in test/runtime/stdio.test.ts).
   */
  it.concurrent.each([
    ['HTTP (meridian serve)', 'legacy'],
    ['HTTP (meridian serve)', 'modern'],
    ['stdio (meridian stdio)', 'modern'],
  ] as const)(
    'calls a tool of every toolset over %s in the %s era',
    async (transport, era) => {
      const inspector = await startInspector(targets[transport](), era);
      try {
        await callEveryToolset((tool, args) => inspector.callTool(tool, args), `inspector ${era}`);
      } finally {
        await inspector.close();
      }
    },
    480_000,
  );

  it.concurrent('reads a resource, gets a prompt, and finds no error-level portability problem in tools/list (--strict)', async () => {
    const inspector = await startInspector(targets['HTTP (meridian serve)'](), 'modern');
    try {
      const [resource, prompt, listing] = await Promise.all([
        inspector.request({ method: 'resources/read', uri: 'timesheet://docs/rules-syntax' }),
        inspector.request({ method: 'prompts/get', prompt: 'weekly-timesheet', args: { week: '2026-W48' } }),
        // --strict exits 6, which rejects here, on any error-severity schema problem.
        inspector.request({ method: 'tools/list', strict: true }),
      ]);

      expect(resource.contents[0]).toMatchObject({
        mimeType: 'text/markdown',
        text: expect.stringMatching(/^# Classification rules syntax/),
      });
      expect(prompt.messages[0].content.text).toContain('2026-W48');
      expect(listing.tools.map((tool: { name: string }) => tool.name)).toContain('batch_update_events');
    } finally {
      await inspector.close();
    }
  }, 480_000);
});
