import { DomainError } from '../errors.js';
import {
  type Condition,
  ConditionFailedError,
  type DocumentStore,
  type StoredItem,
} from '../ports/document-store.js';
import { PK_PREFIX, SK } from './key-prefixes.js';

/**
 * The version of the table's layout (key-prefixes.ts and the items under them) that this Meridian
 * writes. A store written before versioning existed holds no version record and counts as 0.
 */
export const CURRENT_SCHEMA_VERSION = 1;

/**
 * One step of the layout, from `to - 1` to `to`. `run` must be idempotent: a step interrupted by a
 * crash runs again from the start on the next open, and two processes opening one old store at
 * once may both run it.
 */
export interface SchemaMigration {
  to: number;
  /** What the step changes, for the log. */
  summary: string;
  run(store: DocumentStore): Promise<void>;
}

/**
 * The steps from 0. Version 1 changes no item: it introduces the version record itself, so that a
 * later layout change can tell a store written before it and refuse one written after it.
 */
export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  { to: 1, summary: 'record the schema version (no item changes)', run: async () => undefined },
];

const VERSION_KEY = { pk: `${PK_PREFIX.meta}schema`, sk: SK.meta.schemaVersion };

interface VersionRecord extends StoredItem {
  version: number;
  /** The step being applied, while one is: a crash leaves it here and the next open runs it again. */
  migrating_to?: number;
  updated_at: string;
}

export interface SchemaCheck {
  /** The version the store held when opened (0: written before versioning, or empty). */
  found: number;
  /** The version it holds now. */
  version: number;
  /** The steps this open applied, in order. */
  applied: string[];
}

/**
 * Brings the store to {@link CURRENT_SCHEMA_VERSION} before anything else reads it, or refuses a
 * store a newer Meridian wrote (UNSUPPORTED_FORMAT, naming both versions). Each step is recorded as
 * started, run, then recorded as done with a write conditioned on the version it started from, so
 * the version only moves forward and an interrupted upgrade resumes where it stopped.
 */
export async function ensureSchemaVersion(
  store: DocumentStore,
  now: () => Date,
  steps: readonly SchemaMigration[] = SCHEMA_MIGRATIONS,
  current = CURRENT_SCHEMA_VERSION,
): Promise<SchemaCheck> {
  const found = (await store.get<VersionRecord>(VERSION_KEY, { consistent: true }))?.version ?? 0;
  if (found > current) {
    throw new DomainError(
      'UNSUPPORTED_FORMAT',
      `This data was written by a newer Meridian (schema version ${found}); this one reads up to version ${current}. ` +
        'Run the newer Meridian on it, or open a backup taken before the upgrade.',
      { found, supported: current },
    );
  }
  const applied: string[] = [];
  let version = found;
  for (const step of steps.filter((candidate) => candidate.to > found && candidate.to <= current)) {
    await writeVersion(store, now, version, { version, migrating_to: step.to });
    await step.run(store);
    await writeVersion(store, now, version, { version: step.to });
    version = step.to;
    applied.push(`${step.to}: ${step.summary}`);
  }
  return { found, version, applied };
}

/** Writes the version record if it still says `from` (absent counts as 0); a later version already there wins. */
async function writeVersion(
  store: DocumentStore,
  now: () => Date,
  from: number,
  fields: Pick<VersionRecord, 'version' | 'migrating_to'>,
): Promise<void> {
  const condition: Condition =
    from === 0
      ? { op: 'or', conditions: [{ op: 'not_exists' }, { op: 'eq', attribute: 'version', value: 0 }] }
      : { op: 'eq', attribute: 'version', value: from };
  try {
    await store.put({ ...VERSION_KEY, ...fields, updated_at: now().toISOString() }, { condition });
  } catch (error) {
    // Another process moved the version on meanwhile: its step was the same idempotent step.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
