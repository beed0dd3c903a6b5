/**
 * The rule query parser: median microseconds per query over the test corpus (the queries of
 * test/core/rules/parse-query.test.ts: arguments of parseQuery/failure and first items of its
 * it.each rows; valid queries and refused ones alike, since an error with its caret line is part
 * of the work).
 */
import { readFileSync } from 'node:fs';
import { isDomainError } from '../lambdas/core/errors.js';
import { parseQuery } from '../lambdas/core/rules/parse-query.js';
import { measure, reportFigure } from './harness.js';

function corpus(): string[] {
  const source = readFileSync(new URL('../test/core/rules/parse-query.test.ts', import.meta.url), 'utf8');
  const pattern = /(?:parseQuery\(|failure\(|^\s*\[)'((?:[^'\\\n]|\\.)*)'/gm;
  const literals = [...source.matchAll(pattern)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
  return [...new Set(literals)].filter((q) => q.length > 0);
}

function parseOnce(query: string): boolean {
  try {
    parseQuery(query);
    return true;
  } catch (error) {
    if (isDomainError(error)) return false;
    throw error;
  }
}

export async function run(): Promise<void> {
  const queries = corpus();
  const valid = queries.filter(parseOnce).length;
  const perQuery: number[] = [];
  for (const query of queries) {
    const sample = await measure(query, () => parseOnce(query), { runs: 15, warmup: 20, inner: 200 });
    perQuery.push(sample.medianMs * 1000);
  }
  perQuery.sort((a, b) => a - b);
  const median = perQuery[Math.floor(perQuery.length / 2)]!;
  const p90 = perQuery[Math.floor(perQuery.length * 0.9)]!;
  reportFigure(
    'parse rule queries',
    `${queries.length} queries from the test corpus (${valid} valid, ${queries.length - valid} refused): median ${median.toFixed(2)} µs, p90 ${p90.toFixed(2)} µs, max ${perQuery.at(-1)!.toFixed(2)} µs per query`,
  );
}
