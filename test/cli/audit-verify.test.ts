import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentStore, StoredItem } from '../../lambdas/core/ports/index.js';
import { createProjectTool } from '../../lambdas/mcp/tools/rules/create-project.js';
import { runCliTool } from '../../lambdas/runtime/cli/cli-tool.js';
import { createEmbeddedRuntime } from '../../lambdas/runtime/embedded.js';
import { openEmbeddedStore } from '../../lambdas/runtime/embedded-store.js';
import { meridian } from '../support/cli.js';

/** `meridian …` whose failure is an answer, not a throw: exit code and both streams. */
async function meridianExit(args: string[]) {
  try {
    return { code: 0, ...(await meridian(args)) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const recordKey = (day: string, seq: number) => ({
  pk: `AUDIT#${day}`,
  sk: `REC#${String(seq).padStart(12, '0')}`,
});

/**
 * `meridian audit verify` against a data folder whose log was tampered with in each of the four
 * ways a hash chain must show: a record changed, removed, inserted, and two reordered. Each works
 * on its own copy of one folder, written by the CLI and by tool calls.
 */
describe('meridian audit verify', { timeout: 180_000 }, () => {
  let original: string;
  let day: string;
  let keyId: string;
  const copies: string[] = [];

  beforeAll(async () => {
    original = await mkdtemp(join(tmpdir(), 'meridian-audit-'));
    const created = await meridian(['keys', 'create', '--label', 'agent', '--data-dir', original]);
    keyId = /mrd_([a-z0-9]{12})_/.exec(created.stdout)![1]!;
    const runtime = await createEmbeddedRuntime({ dataDir: original, host: '127.0.0.1', port: 0 });
    try {
      for (const name of ['Acme', 'Globex', 'Initech', 'Umbrella'])
        await runCliTool(runtime, createProjectTool, { name });
      await runtime.access.grantsOf(keyId);
    } finally {
      await runtime.close();
    }
    day = new Date().toISOString().slice(0, 10);
  });

  afterAll(async () => {
    for (const dir of [original, ...copies]) await rm(dir, { recursive: true, force: true });
  });

  /** A copy of the folder, changed through its store by `tamper`. */
  async function tampered(tamper: (store: DocumentStore) => Promise<void>): Promise<string> {
    const copy = await mkdtemp(join(tmpdir(), 'meridian-audit-copy-'));
    copies.push(copy);
    await cp(original, copy, { recursive: true });
    const opened = await openEmbeddedStore(copy);
    try {
      await tamper(opened.store);
    } finally {
      await opened.close();
    }
    return copy;
  }

  const read = async (store: DocumentStore, seq: number) =>
    (await store.get(recordKey(day, seq), { consistent: true }))!;

  it('lists what the CLI and the tools changed, and finds the untouched chain intact', async () => {
    const listed = await meridian(['audit', 'list', '--data-dir', original]);
    expect(listed.stdout).toMatch(new RegExp(`#1 .*local-owner\\s+keys create\\s+ok\\s+${keyId}`));
    expect(listed.stdout.match(/create_project\s+ok/g)).toHaveLength(4);
    const verified = await meridianExit(['audit', 'verify', '--data-dir', original]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`${day}: 5 records, chain intact`);
    const exported = (await meridian(['audit', 'export', '--data-dir', original])).stdout.trim().split('\n');
    expect(exported.map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('finds a changed record', async () => {
    const copy = await tampered(async (store) => {
      await store.put({ ...(await read(store, 3)), principal: 'key:someone-else' });
    });
    const verified = await meridianExit(['audit', 'verify', '--data-dir', copy]);
    expect(verified.code).not.toBe(0);
    expect(verified.stderr).toContain('#3: its fields do not match its hash (changed)');
  });

  it('finds a removed record', async () => {
    const copy = await tampered((store) => store.delete(recordKey(day, 3)));
    const verified = await meridianExit(['audit', 'verify', '--data-dir', copy]);
    expect(verified.code).not.toBe(0);
    expect(verified.stderr).toContain('#3: record 3 is missing or out of place');
  });

  it('finds an inserted record, even one numbered into place', async () => {
    const copy = await tampered(async (store) => {
      // Shift records 3..5 up by one and put a forged record at 3 with a well-formed hash.
      const moved: StoredItem[] = [];
      for (let seq = 5; seq >= 3; seq--) {
        const item = await read(store, seq);
        moved.push({ ...item, ...recordKey(day, seq + 1), seq: seq + 1 });
      }
      await store.batchPut(moved);
      const second = await read(store, 2);
      await store.put({
        ...(await read(store, 3)),
        ...recordKey(day, 3),
        seq: 3,
        prev: second.hash,
        action: 'forged',
      });
    });
    const verified = await meridianExit(['audit', 'verify', '--data-dir', copy]);
    expect(verified.code).not.toBe(0);
    expect(verified.stderr).toMatch(
      /#3: its fields do not match its hash|#4: does not follow the record before it/,
    );
  });

  it('finds two records swapped', async () => {
    const copy = await tampered(async (store) => {
      const [third, fourth] = [await read(store, 3), await read(store, 4)];
      await store.put({ ...fourth, ...recordKey(day, 3) });
      await store.put({ ...third, ...recordKey(day, 4) });
    });
    const verified = await meridianExit(['audit', 'verify', '--data-dir', copy]);
    expect(verified.code).not.toBe(0);
    expect(verified.stderr).toContain('#3: record 3 is missing or out of place (found seq 4)');
    expect(verified.stderr).toContain('does not follow the record before it');
  });
});
