import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startDynalite } from '../../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../../lambdas/adapters/dynamodb/local-dynamodb.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import type { DocumentStore } from '../../../lambdas/core/ports/index.js';
import {
  CURRENT_SCHEMA_VERSION,
  ensureSchemaVersion,
  type SchemaMigration,
} from '../../../lambdas/core/storage/schema-version.js';

const dynalite = await startDynalite();
const client = createLocalDynamoDbClient(dynalite.endpoint);
const now = () => new Date('2026-11-27T08:00:00Z');
let table = 0;
let store: DocumentStore;

afterAll(async () => {
  client.destroy();
  await dynalite.close();
});

beforeEach(async () => {
  const tableName = `schema-${++table}`;
  await ensureTable(client, tableName);
  store = new DynamoDbDocumentStore({ client, tableName });
});

/** Three steps that each append to a log item, the second failing the first time it runs. */
function stepsFailingOnce(runs: number[]): SchemaMigration[] {
  let failed = false;
  return [1, 2, 3].map((to) => ({
    to,
    summary: `step ${to}`,
    run: async () => {
      runs.push(to);
      if (to === 2 && !failed) {
        failed = true;
        throw new Error('crash in the middle of step 2');
      }
    },
  }));
}

const versionItem = () => store.get({ pk: 'META#schema', sk: 'VERSION' }, { consistent: true });

describe('the data schema version', () => {
  it('stamps a store written before versioning with the current version, and a second open applies nothing', async () => {
    const first = await ensureSchemaVersion(store, now);
    const second = await ensureSchemaVersion(store, now);

    expect(first).toMatchObject({ found: 0, version: CURRENT_SCHEMA_VERSION });
    expect(first.applied).toHaveLength(CURRENT_SCHEMA_VERSION);
    expect(second).toEqual({ found: CURRENT_SCHEMA_VERSION, version: CURRENT_SCHEMA_VERSION, applied: [] });
  });

  it('resumes an interrupted upgrade at the step that did not finish, without running the finished ones again', async () => {
    const runs: number[] = [];
    const steps = stepsFailingOnce(runs);

    await expect(ensureSchemaVersion(store, now, steps, 3)).rejects.toThrow('crash in the middle of step 2');
    expect(await versionItem()).toMatchObject({ version: 1, migrating_to: 2 });
    const resumed = await ensureSchemaVersion(store, now, steps, 3);

    expect(runs).toEqual([1, 2, 2, 3]);
    expect(resumed).toEqual({ found: 1, version: 3, applied: ['2: step 2', '3: step 3'] });
    expect(await versionItem()).not.toHaveProperty('migrating_to');
  });

  it('ends at the current version when several processes open one old store at once', async () => {
    const steps: SchemaMigration[] = [1, 2, 3].map((to) => ({
      to,
      summary: `step ${to}`,
      run: async () => {},
    }));

    const opened = await Promise.all(
      Array.from({ length: 6 }, () => ensureSchemaVersion(store, now, steps, 3)),
    );

    expect(opened.map((check) => check.version)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(await versionItem()).toMatchObject({ version: 3 });
  });

  it('refuses a store a newer Meridian wrote, naming both versions, and changes nothing', async () => {
    await store.put({
      pk: 'META#schema',
      sk: 'VERSION',
      version: CURRENT_SCHEMA_VERSION + 4,
      updated_at: 'x',
    });

    const refused = await ensureSchemaVersion(store, now).catch((error: unknown) => error);

    expect(isDomainError(refused, 'UNSUPPORTED_FORMAT')).toBe(true);
    expect((refused as Error).message).toContain(`schema version ${CURRENT_SCHEMA_VERSION + 4}`);
    expect((refused as Error).message).toContain(`up to version ${CURRENT_SCHEMA_VERSION}`);
    expect(await versionItem()).toMatchObject({ version: CURRENT_SCHEMA_VERSION + 4 });
  });
});
