/**
 * Issue 7: what tools/list costs an agent, per tool, per toolset and in all, in o200k tokens.
 * Target: the whole listing averages at most 450 tokens per tool.
 */
import { allToolsCatalogue } from '../lambdas/mcp/tools/index.js';
import { reportFigure } from './harness.js';
import { LISTING_BUDGET_PER_TOOL, listingTokens, tokenTotals } from './listing-tokens.js';

export async function run(): Promise<void> {
  const counts = listingTokens(await allToolsCatalogue.listing());
  for (const count of counts) {
    reportFigure(
      `${count.toolset.padEnd(12)} ${count.name.padEnd(22)}`,
      `${String(count.tokens).padStart(5)} tokens (output schema ${count.outputSchemaTokens})`,
    );
  }
  for (const toolset of new Set(counts.map((count) => count.toolset))) {
    const totals = tokenTotals(counts.filter((count) => count.toolset === toolset));
    reportFigure(
      `toolset ${toolset}`,
      `${totals.total} tokens for ${totals.tools} tools (${totals.average.toFixed(0)} per tool)`,
    );
  }
  const all = tokenTotals(counts);
  const met = all.average <= LISTING_BUDGET_PER_TOOL;
  console.log(
    `${met ? 'PASS' : 'MISS'}  tools/list: ${all.total} tokens for ${all.tools} tools → ${all.average.toFixed(0)} per tool (target ≤ ${LISTING_BUDGET_PER_TOOL})`,
  );
}
