/**
 * The table store a Lambda function's parts use while its schema check is still running
 * (runtime/schema-gated-store.ts), on dynalite with the real check: a newer table gets no write
 * and hands out no item; a read that overlapped an upgrade is answered from the upgraded table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { once } from '../../lambdas/core/once.js';
import type { DocumentStore } from '../../lambdas/core/ports/index.js';
import {
  CURRENT_SCHEMA_VERSION,
  ensureSchemaVersion,
  type SchemaMigration,
} from '../../lambdas/core/storage/schema-version.js';
import { schemaGatedStore } from '../../lambdas/runtime/schema-gated-store.js';
import { type StoreOnTable, startDynaliteStore } from '../support/dynalite-store.js';

const NEWER = CURRENT_SCHEMA_VERSION + 1;
const ITEM = { pk: 'TEST#gate', sk: 'ITEM' };
const now = () => new Date();

describe('the table store behind a schema check that is still running', { timeout: 30_000 }, () => {
  let table: StoreOnTable | undefined;

  afterEach(async () => {
    await table?.close();
    table = undefined;
  });

  it('sends no write to a table a newer Meridian wrote, and hands out none of its items', async () => {
    table = await startDynaliteStore('gate');
    const { store } = table;
    await ensureSchemaVersion(
      store,
      now,
      [{ to: NEWER, summary: 'later', run: async () => undefined }],
      NEWER,
    );
    await store.put({ ...ITEM, value: 'theirs' });
    // The check as a function runs it, begun before the first call and not awaited.
    const gated = schemaGatedStore(
      store,
      once(() => ensureSchemaVersion(store, now)),
    );

    const refused = {
      code: 'UNSUPPORTED_FORMAT',
      details: { found: NEWER, supported: CURRENT_SCHEMA_VERSION },
    };
    await expect(gated.put({ pk: 'TEST#gate', sk: 'NEW', value: 'mine' })).rejects.toMatchObject(refused);
    await expect(gated.batchPut([{ pk: 'TEST#gate', sk: 'NEW2' }])).rejects.toMatchObject(refused);
    await expect(gated.delete(ITEM)).rejects.toMatchObject(refused);
    await expect(gated.get(ITEM)).rejects.toMatchObject(refused);
    await expect(gated.query({ partition: 'TEST#gate' })).rejects.toMatchObject(refused);

    const { items } = await store.query({ partition: 'TEST#gate' });
    expect(items).toEqual([{ ...ITEM, value: 'theirs' }]);
  });

  it('reads again, after the upgrade, what it read while the check was upgrading the table', async () => {
    table = await startDynaliteStore('gate');
    const { store } = table;
    await store.put({ ...ITEM, value: 'old layout' });
    // The read is answered before the step rewrites the item: its first answer is the old layout.
    let firstReadAnswered!: () => void;
    const answered = new Promise<void>((resolve) => {
      firstReadAnswered = resolve;
    });
    const noticing: DocumentStore = {
      ...store,
      get: async (key, options) => {
        const item = await store.get(key, options);
        firstReadAnswered();
        return item as never;
      },
    };
    const rewrite: SchemaMigration = {
      to: 1,
      summary: 'rewrite the item',
      run: async (s) => {
        await answered;
        await s.put({ ...ITEM, value: 'new layout' });
      },
    };
    const gated = schemaGatedStore(
      noticing,
      once(() => ensureSchemaVersion(store, now, [rewrite], 1)),
    );

    expect(await gated.get(ITEM)).toEqual({ ...ITEM, value: 'new layout' });
  });
});
