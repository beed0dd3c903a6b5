import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ruleCase } from './rule-arbitrary.js';

const SCRIPT = fileURLToPath(new URL('../../../fixtures/expand-cases.ts', import.meta.url));
const HOST_ZONES = ['UTC', 'America/Los_Angeles', 'Australia/Sydney'];

const directory = mkdtempSync(join(tmpdir(), 'expand-rrule-host-tz-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface ChildOutput {
  hostZone: string;
  results: unknown[];
}

/** Runs the cases in a fresh Node process whose host zone is `tz` (TZ is read once per process). */
function expandUnder(tz: string, casesFile: string): ChildOutput {
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, casesFile], {
    env: { ...process.env, TZ: tz },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`expand-cases.ts under TZ=${tz} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ChildOutput;
}

describe('expandRrule', () => {
  describe('host time zone independence', () => {
    it('gives identical results with TZ=UTC, America/Los_Angeles and Australia/Sydney for 400 generated cases', () => {
      // Arrange: the same generated cases (fixed seed) for every process.
      const cases = fc.sample(ruleCase, { seed: 424242, numRuns: 400 });
      const casesFile = join(directory, 'cases.json');
      writeFileSync(casesFile, JSON.stringify(cases));

      // Act
      const outputs = HOST_ZONES.map((tz) => expandUnder(tz, casesFile));

      // Assert: each child really ran in its zone, and all agree case by case.
      expect(outputs.map((o) => o.hostZone)).toEqual(HOST_ZONES);
      const [first, ...others] = outputs;
      expect(first!.results).toHaveLength(cases.length);
      expect(
        first!.results.filter((r) => (r as { instances?: unknown[] }).instances?.length).length,
      ).toBeGreaterThan(300);
      for (const other of others) {
        for (let i = 0; i < cases.length; i++) {
          expect({ case: cases[i], result: other.results[i] }).toEqual({
            case: cases[i],
            result: first!.results[i],
          });
        }
      }
    }, 120_000); // three Node processes, each starting tsx: slow on a loaded machine
  });
});
