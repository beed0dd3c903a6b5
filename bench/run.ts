/**
 * `npm run bench`: runs every bench/*.bench.ts in turn (or those whose names contain argv[2]).
 * Each prints PASS/MISS lines with ratios measured in the same run.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();

for (const file of files) {
  console.log(`\n== ${file}`);
  const module = (await import(pathToFileURL(`${here}${file}`).href)) as { run: () => Promise<void> };
  await module.run();
}
