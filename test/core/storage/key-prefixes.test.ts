import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GSI1PK, NATIVE_INDEX_SUFFIX, PK_PREFIX, SK } from '../../../lambdas/core/storage/key-prefixes.js';

const ROOT = join(import.meta.dirname, '../../..');
const REGISTRY = 'lambdas/core/storage/key-prefixes.ts';

/** Pairs of one group where one value starts the other: a query on one would find the other's items. */
function overlaps(values: readonly string[]): [string, string][] {
  const found: [string, string][] = [];
  values.forEach((a, i) => {
    values.forEach((b, j) => {
      if (i !== j && b.startsWith(a)) found.push([a, b]);
    });
  });
  return found;
}

/**
 * Key text spelled outside the registry: a `KIND#` literal (quoted or the head of a template), or
 * a literal given straight to a key attribute or a key query. Comment lines are skipped: doc
 * examples name keys without writing them.
 */
function keyLiterals(source: string): string[] {
  const prefixLiteral = /['"`][A-Z][A-Z0-9_]*#/;
  // A template that opens with an interpolation is built from parts, which the first check sees.
  const attributeLiteral =
    /\b(pk|sk|gsi1pk|gsi1sk|partition|beginsWith)\s*:\s*(z\.literal\()?(['"]|`(?!\$\{))/;
  return source
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .filter((line) => prefixLiteral.test(line) || attributeLiteral.test(line))
    .map((line) => line.trim());
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

describe('table key registry', () => {
  describe('partition keys', () => {
    it('gives every kind of item a prefix that starts no other kind', () => {
      const prefixes = Object.values(PK_PREFIX);

      expect(overlaps(prefixes)).toEqual([]);
      for (const prefix of prefixes) expect(prefix).toMatch(/^[A-Z]+#$/);
    });
  });

  describe('sort keys', () => {
    it('never lets one sort key start another within the same kind of partition', () => {
      for (const [kind, keys] of Object.entries(SK)) {
        expect({ kind, overlaps: overlaps(Object.values(keys)) }).toEqual({ kind, overlaps: [] });
      }
    });

    it('has sort keys for exactly the kinds of partition there are', () => {
      expect(Object.keys(SK).sort()).toEqual(Object.keys(PK_PREFIX).sort());
    });
  });

  describe('index partitions', () => {
    it('keeps the cross-partition listings apart from each other', () => {
      expect(overlaps(Object.values(GSI1PK))).toEqual([]);
    });

    it("nests a native calendar's two index partitions under its id, neither starting the other", () => {
      const byStart = `${GSI1PK.nativeCalendarPrefix}cal-1${NATIVE_INDEX_SUFFIX.byStart}`;
      const long = `${GSI1PK.nativeCalendarPrefix}cal-1${NATIVE_INDEX_SUFFIX.long}`;

      expect(overlaps([byStart, long])).toEqual([]);
      expect(overlaps(Object.values(NATIVE_INDEX_SUFFIX))).toEqual([]);
    });
  });

  describe('sources', () => {
    it('finds a key spelled outside the registry', () => {
      const planted = [
        'const key = { pk: `LOCK#` + calendarId, sk: HOLDS };',
        "await store.query({ index: 'gsi1', partition: 'KEYS' });",
        "const Item = z.object({ sk: z.literal('KEY') });",
        ' * A comment may name `LOCK#<calendar id>` / `HOLDS`.',
      ].join('\n');

      expect(keyLiterals(planted)).toHaveLength(3);
    });

    it('spells every key written under lambdas/ through the registry', () => {
      const files = sourcesUnder('lambdas').filter((file) => file !== REGISTRY);
      expect(files.length).toBeGreaterThan(100);

      const offenders = files.flatMap((file) =>
        keyLiterals(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line}`),
      );

      expect(offenders).toEqual([]);
    });
  });
});
