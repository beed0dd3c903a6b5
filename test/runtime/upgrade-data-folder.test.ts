import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION } from '../../lambdas/core/storage/schema-version.js';
import { openEmbeddedStore } from '../../lambdas/runtime/embedded-store.js';
import { meridian, startServe } from '../support/cli.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { type StdioProcess, startStdio } from '../support/stdio-process.js';

/**
 * A data folder written by the Meridian of ee66192, before the schema had a version
 * (test/fixtures/data-folder-0.1, made by its make-data-folder.ts), opened by this one: everything
 * it held still reads, through the CLI, `serve` with the folder's own API key, and stdio.
 */
const FIXTURE = 'test/fixtures/data-folder-0.1';
const ids = JSON.parse(await readFile(join(FIXTURE, 'expected.json'), 'utf8')) as Record<string, string>;
const quiet = { MERIDIAN_SYNC_INTERVAL_MINUTES: '0', MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES: '0' };
const run = promisify(execFile);

describe('opening a data folder an older Meridian wrote', { timeout: 120_000 }, () => {
  let parent: string;
  let dir: string;
  let firstOpen: { stdout: string; stderr: string };

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'meridian-upgrade-'));
    dir = join(parent, 'data');
    await mkdir(dir, { mode: 0o700 });
    await run('tar', ['-xzf', join(FIXTURE, 'data-folder.tar.gz'), '-C', dir]);
    firstOpen = await meridian(['keys', 'list', '--data-dir', dir], quiet);
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('upgrades it in place on the first open, says so once, and keeps its keys', async () => {
    const again = await meridian(['keys', 'list', '--data-dir', dir], quiet);

    expect(firstOpen.stderr).toContain(`from schema version 0 to ${CURRENT_SCHEMA_VERSION}`);
    expect(firstOpen.stdout).toContain(ids.keyId);
    expect(again.stderr).not.toContain('Upgraded the data folder');
    expect(again.stdout).toBe(firstOpen.stdout);
  });

  describe('over HTTP with the folder’s own API key', () => {
    let server: Awaited<ReturnType<typeof startServe>>;
    let agent: Client;
    const call = async (name: string, args: Record<string, unknown>) =>
      agent.callTool({ name, arguments: args }) as Promise<{
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
      }>;

    beforeAll(async () => {
      server = await startServe(['--data-dir', dir], quiet);
      agent = await connectHttpClient(server.url, undefined, { authorization: `Bearer ${ids.apiKey}` });
    });
    afterAll(async () => {
      await agent?.close();
      await server?.stop();
    });

    it('lists the calendar’s one-off event, its booking and its weekly series on Berlin wall time', async () => {
      const listed = await call('list_events', {
        calendar_id: ids.calendar,
        start: '2026-11-01T00:00:00Z',
        end: '2026-11-08T00:00:00Z',
        format: 'json',
      });
      const events = (listed.structuredContent?.events ?? []) as { summary: string; start: unknown }[];

      expect(listed.isError).toBeFalsy();
      expect(events.filter((event) => event.summary === 'Standup').map((event) => event.start)).toEqual([
        expect.objectContaining({ date_time: '2026-11-02T09:00:00+01:00', time_zone: 'Europe/Berlin' }),
        expect.objectContaining({ date_time: '2026-11-04T09:00:00+01:00' }),
        expect.objectContaining({ date_time: '2026-11-06T09:00:00+01:00' }),
      ]);
      const single = await call('get_event', { calendar_id: ids.calendar, event_id: ids.single });
      const booked = await call('get_event', { calendar_id: ids.calendar, event_id: ids.booked });
      expect(JSON.stringify(single.structuredContent)).toContain('ann@acme.com');
      expect(booked.structuredContent?.event).toMatchObject({ summary: 'Booked call' });
    });

    it('keeps the key’s grant: read, not write', async () => {
      const refused = await call('delete_event', { calendar_id: ids.calendar, event_id: ids.single });

      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused)).toContain('FORBIDDEN');
    });
  });

  describe('as the local owner over stdio', () => {
    let owner: StdioProcess;

    beforeAll(async () => {
      owner = await startStdio(dir);
    });
    afterAll(() => owner?.close());

    it('keeps the project’s rule, its memory branch and a snapshot that restores after verification', async () => {
      const rules = await owner.call('list_rules', { format: 'json' });
      const loaded = await owner.call('load_context', { project_id: ids.project, branch_id: ids.branch });
      const restored = await owner.call('restore_snapshot', {
        project_id: ids.project,
        snapshot_id: ids.snapshot,
      });

      expect(JSON.stringify(rules.structuredContent)).toContain(ids.rule);
      expect(JSON.stringify(loaded.structuredContent)).toContain('rollback plan');
      expect(restored.isError).toBeFalsy();
    });
  });

  it('refuses a folder a newer Meridian wrote, naming both versions', async () => {
    const opened = await openEmbeddedStore(dir);
    await opened.store.put({
      pk: 'META#schema',
      sk: 'VERSION',
      version: CURRENT_SCHEMA_VERSION + 1,
      updated_at: 'x',
    });
    await opened.close();

    const refused = await meridian(['keys', 'list', '--data-dir', dir], quiet).catch(
      (error: { code: number; stderr: string }) => error,
    );

    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toContain(
      `schema version ${CURRENT_SCHEMA_VERSION + 1}); this one reads up to version ${CURRENT_SCHEMA_VERSION}`,
    );
  });
});
