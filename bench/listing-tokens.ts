/**
 * What tools/list costs an agent, in o200k tokens (the tokenizer of current OpenAI models; other
 * vendors' counts differ by a few percent, the ranking does not). Each tool is counted as the
 * compact JSON a client receives; shared by `npm run bench` and the listing budget test.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ToolsetListing } from '../lambdas/mcp/toolsets.js';

/** The most tokens a listed tool may cost on average (issue 7). */
export const LISTING_BUDGET_PER_TOOL = 450;

/** The most tokens any one listed tool may cost (issue 19): a tool past it repeats what others say. */
export const LISTING_CEILING_PER_TOOL = 700;

export interface ToolTokens {
  toolset: string;
  name: string;
  tokens: number;
  /** The part of `tokens` spent on the output schema. */
  outputSchemaTokens: number;
}

/** Token counts of one tool as tools/list shows it. */
export function toolTokens(toolset: string, tool: Tool): ToolTokens {
  return {
    toolset,
    name: tool.name,
    tokens: encode(JSON.stringify(tool)).length,
    outputSchemaTokens: tool.outputSchema ? encode(JSON.stringify(tool.outputSchema)).length : 0,
  };
}

/** Every listed tool's token counts, in listing order. */
export function listingTokens(listing: ToolsetListing): ToolTokens[] {
  return Object.entries(listing).flatMap(([toolset, tools]) =>
    tools.map((tool) => toolTokens(toolset, tool)),
  );
}

/** Total tokens and the average per tool of a set of counts. */
export function tokenTotals(counts: readonly ToolTokens[]): {
  tools: number;
  total: number;
  average: number;
} {
  const total = counts.reduce((sum, count) => sum + count.tokens, 0);
  return { tools: counts.length, total, average: counts.length === 0 ? 0 : total / counts.length };
}
