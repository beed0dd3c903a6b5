import {
  type BatchOperation,
  dynaliteLevel,
  type LevelDatabase,
  requireFromDynalite,
} from './dynalite-level.js';

/** dynalite's table description, as it stores it under `table~<name>`. */
interface TableDescription {
  TableName: string;
  GlobalSecondaryIndexes?: unknown[];
  LocalSecondaryIndexes?: unknown[];
}

interface IndexAction {
  index: string;
  key: string;
  item: unknown;
}

interface DynaliteDb {
  getIndexActions(
    indexes: unknown[],
    existingItem: unknown,
    item: unknown,
    table: TableDescription,
  ): { puts: IndexAction[] };
}

/** The keys whose LevelDB key starts with `prefix`: dynalite separates its sub-stores with `~`. */
function rangeOf(prefix: string) {
  return { gte: `${prefix}~`, lt: `${prefix}\u007f` };
}

/**
 * Makes dynalite's secondary indexes agree with its items again, in a LevelDB folder no server
 * has open. dynalite writes a put's index entries first and the item after, as separate LevelDB
 * writes: a process killed in between leaves an index entry without its item (a listing shows an
 * event that `get` cannot find) or, for an update, an entry that disagrees with the item. DynamoDB
 * keeps an index consistent with its table, so the embedded store restores that before it serves:
 * every index entry is recomputed from the items (dynalite's own `getIndexActions`), and entries
 * that differ are rewritten or deleted, in one atomic LevelDB batch. Returns how many changed.
 *
 * @example
 * const repaired = await repairDynaliteIndexes(join(dataDir, 'dynamodb'));
 */
export async function repairDynaliteIndexes(path: string): Promise<number> {
  const db = requireFromDynalite('./db/index.js') as DynaliteDb;
  const level = dynaliteLevel(path);
  await level.open();
  try {
    const operations: BatchOperation[] = [];
    for await (const [, table] of level.iterator(rangeOf('table'))) {
      operations.push(...(await repairTable(level, db, table as TableDescription)));
    }
    if (operations.length > 0) await level.batch(operations);
    return operations.length;
  } finally {
    await level.close();
  }
}

async function repairTable(
  level: LevelDatabase,
  db: DynaliteDb,
  table: TableDescription,
): Promise<BatchOperation[]> {
  const kinds = [
    { type: 'global', indexes: table.GlobalSecondaryIndexes ?? [] },
    { type: 'local', indexes: table.LocalSecondaryIndexes ?? [] },
  ];
  const expected = new Map<string, string>();
  for await (const [, item] of level.iterator(rangeOf(`item-${table.TableName}`))) {
    for (const { type, indexes } of kinds) {
      for (const put of db.getIndexActions(indexes, undefined, item, table).puts) {
        expected.set(`index-${type}~${table.TableName}~${put.index}~${put.key}`, JSON.stringify(put.item));
      }
    }
  }
  const operations: BatchOperation[] = [];
  for (const { type, indexes } of kinds) {
    for (const index of indexes as { IndexName: string }[]) {
      const prefix = `index-${type}~${table.TableName}~${index.IndexName}`;
      for await (const [key, value] of level.iterator(rangeOf(prefix))) {
        const wanted = expected.get(key);
        if (wanted === undefined) operations.push({ type: 'del', key });
        else if (wanted !== JSON.stringify(value))
          operations.push({ type: 'put', key, value: JSON.parse(wanted) });
        expected.delete(key);
      }
    }
  }
  for (const [key, value] of expected) operations.push({ type: 'put', key, value: JSON.parse(value) });
  return operations;
}
