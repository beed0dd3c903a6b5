import { createRequire } from 'node:module';

export type BatchOperation = { type: 'put'; key: string; value: unknown } | { type: 'del'; key: string };

export interface LevelDatabase {
  open(): Promise<void>;
  close(): Promise<void>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, unknown]>;
  batch(operations: BatchOperation[]): Promise<void>;
}

export const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));

/**
 * A handle (not yet open) on a LevelDB folder, from the very `level` package dynalite uses and
 * with its JSON encoding, so no dependency of our own.
 */
export function dynaliteLevel(path: string): LevelDatabase {
  const { Level } = requireFromDynalite('level') as {
    Level: new (path: string, options: { valueEncoding: string }) => LevelDatabase;
  };
  return new Level(path, { valueEncoding: 'json' });
}

/** True when LevelDB refused to open a folder because another process (or handle) holds its lock. */
export function isLevelLocked(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED';
}
