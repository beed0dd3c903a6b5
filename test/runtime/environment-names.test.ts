import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as names from '../../lambdas/runtime/environment-names.js';

const ROOT = join(import.meta.dirname, '../..');
const REGISTRY = 'lambdas/runtime/environment-names.ts';
const NAME = '(MERIDIAN_[A-Z0-9_]+|LOCK_TTL_SECS|HTTP_PORT|HTTP_HOST|POWERTOOLS_SERVICE_NAME|CI)';

/**
 * A variable named outside the registry: read as `env.NAME` or `env['NAME']`, spelled as a whole
 * string, or set as an object key. Comment lines are skipped (docs may name variables), and so
 * is prose inside a longer string: what must not drift is the name that is read or set.
 */
function spelledNames(source: string): string[] {
  const patterns = [
    /\benv\.[A-Z][A-Z0-9_]*\b/,
    /\benv\[\s*['"`]/,
    new RegExp(`['"\`]${NAME}['"\`]`),
    new RegExp(`^\\s*${NAME}\\s*:|[{,]\\s*${NAME}\\s*:`),
  ];
  return source
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .filter((line) => patterns.some((pattern) => pattern.test(line)))
    .map((line) => line.trim());
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mts|mjs)$/.test(file))
    .map((file) => join(folder, file));
}

describe('environment variable names', () => {
  it('gives every variable one constant, and no two constants the same name', () => {
    const values = Object.values(names);

    expect(values.length).toBeGreaterThanOrEqual(17);
    expect(new Set(values).size).toBe(values.length);
  });

  it('finds a variable named outside the registry', () => {
    const planted = [
      'const zone = env.MERIDIAN_TIMEZONE?.trim();',
      "const ttl = process.env['LOCK_TTL_SECS'];",
      "requireZone(zone, 'MERIDIAN_TIMEZONE');",
      'environment: { HTTP_PORT: String(port) },',
      '  MERIDIAN_DATA_DIR: dir,',
      '/** The zone from MERIDIAN_TIMEZONE. */',
      "throw new Error('Set MERIDIAN_CALDAV_PASSWORD first.');",
      'const zone = env[TIMEZONE_ENV];',
    ].join('\n');

    expect(spelledNames(planted)).toEqual([
      'const zone = env.MERIDIAN_TIMEZONE?.trim();',
      "const ttl = process.env['LOCK_TTL_SECS'];",
      "requireZone(zone, 'MERIDIAN_TIMEZONE');",
      'environment: { HTTP_PORT: String(port) },',
      'MERIDIAN_DATA_DIR: dir,',
    ]);
  });

  it('reads and sets every variable in lambdas/, bin/ and lib/ through the registry', () => {
    const files = ['lambdas', 'bin', 'lib'].flatMap(sourcesUnder).filter((file) => file !== REGISTRY);
    expect(files.length).toBeGreaterThan(100);

    const offenders = files.flatMap((file) =>
      spelledNames(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line}`),
    );

    expect(offenders).toEqual([]);
  });

  it('reads process.env in one place only: environment.ts, which parses it once', () => {
    const reads = ['lambdas', 'bin']
      .flatMap(sourcesUnder)
      .filter((file) => file !== 'lambdas/runtime/environment.ts')
      .filter((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .some((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /\bprocess\.env\b/.test(line)),
      );

    expect(reads).toEqual([]);
  });
});
