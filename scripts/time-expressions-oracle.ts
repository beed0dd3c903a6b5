/**
 * The long run of resolve_datetime's property checks against Python (zoneinfo, dateutil): the
 * zone, business-day and named-period families of test/core/time/resolve/expression-oracle.ts,
 * many more cases than `npm test` draws, from a seed that changes each run unless given.
 *
 *   npx tsx scripts/time-expressions-oracle.ts [cases-per-family=5000] [seed=now]
 *
 * Exits 1 and prints the first mismatches when any case disagrees.
 */
import { FAMILIES, runFamily } from '../test/core/time/resolve/expression-oracle.js';

const runs = Number(process.argv[2] ?? 5000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
// One Python process per batch keeps memory flat on long runs.
const BATCH = 2000;

let failed = false;
console.log(`seed ${seed}, ${runs} cases per family`);
for (const family of FAMILIES) {
  const started = performance.now();
  let cases = 0;
  const mismatches: ReturnType<typeof runFamily>['mismatches'] = [];
  for (let batch = 0; cases < runs; batch++) {
    const run = runFamily(family, Math.min(BATCH, runs - cases), seed + batch);
    cases += run.cases;
    mismatches.push(...run.mismatches);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${family.name}: ${cases} cases, ${mismatches.length} mismatches, ${seconds} s`);
  for (const mismatch of mismatches.slice(0, 5)) console.log('  ', JSON.stringify(mismatch));
  failed ||= mismatches.length > 0;
}
process.exit(failed ? 1 : 0);
