import { describe, expect, it } from 'vitest';
import { needs, PYTHON_DATEUTIL } from '../../../support/system-parts.js';
import { FAMILIES, runFamily } from './expression-oracle.js';

// A short run per family, fixed seed; scripts/time-expressions-oracle.ts runs many more.
const RUNS = 150;
const SEED = 22;

describe('resolve_datetime against Python zoneinfo and dateutil', () => {
  it.each(FAMILIES.map((family) => [family.name, family] as const))(
    'agrees on %s',
    needs(PYTHON_DATEUTIL),
    (_, family) => {
      const run = runFamily(family, RUNS, SEED);
      expect(run.mismatches).toEqual([]);
      expect(run.cases).toBe(RUNS);
    },
  );
});
