import type { Tool } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LISTING_BUDGET_PER_TOOL,
  LISTING_CEILING_PER_TOOL,
  tokenTotals,
  toolTokens,
} from '../../bench/listing-tokens.js';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createMcpServer } from '../../lambdas/mcp/create-mcp-server.js';
import type { McpDeps } from '../../lambdas/mcp/deps.js';
import { allToolsCatalogue, TOOLSET_NAMES } from '../../lambdas/mcp/tools/index.js';
import type { ToolOutput } from '../support/mcp-client.js';

/** Every JSON Schema node under `schema`, the root included. */
function nodesOf(schema: unknown): Record<string, unknown>[] {
  if (Array.isArray(schema)) return schema.flatMap(nodesOf);
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const children = Object.entries(node).flatMap(([keyword, value]) =>
    keyword === 'properties' && typeof value === 'object' && value !== null
      ? Object.values(value).flatMap(nodesOf)
      : nodesOf(value),
  );
  return [node, ...children];
}

/**
 * What tools/list costs an agent (issue 7): a budget of tokens per tool, measured on the listing
 * the SDK's Client receives. Deterministic (a tokenizer, no timing), so it is a test, not a benchmark.
 */
describe('the tools/list budget', () => {
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const deps = {
      version: 'test',
      logger: console,
      tools: allToolsCatalogue,
      toolDeps: async () => ({}) as McpDeps,
    };
    await createMcpServer(deps, { principal: LOCAL_OWNER }).connect(serverSide);
    client = new Client({ name: 'budget', version: '1.0.0' });
    await client.connect(clientSide);
    ({ tools } = await client.listTools());
  });

  afterAll(async () => {
    await client?.close();
  });

  it(`averages at most ${LISTING_BUDGET_PER_TOOL} o200k tokens per tool`, () => {
    const totals = tokenTotals(tools.map((tool) => toolTokens('all', tool)));

    expect(totals.tools).toBeGreaterThanOrEqual(TOOLSET_NAMES.length);
    expect(totals.average).toBeLessThanOrEqual(LISTING_BUDGET_PER_TOOL);
  });

  it(`lists no tool over ${LISTING_CEILING_PER_TOOL} o200k tokens`, () => {
    const over = tools
      .map((tool) => toolTokens('all', tool))
      .filter((count) => count.tokens > LISTING_CEILING_PER_TOOL)
      .map(({ name, tokens }) => `${name}: ${tokens}`);

    expect(over).toEqual([]);
  });

  it('keeps prose out of output schemas and in input schemas', () => {
    for (const tool of tools) {
      const outputNodes = nodesOf(tool.outputSchema);
      expect(
        outputNodes.filter((node) => 'description' in node),
        tool.name,
      ).toEqual([]);
      expect(
        outputNodes.filter((node) => 'additionalProperties' in node && node.additionalProperties === false),
      ).toEqual([]);
      // Every input field an agent can send says what it is, except those whose enum says it all.
      const fields = Object.entries(tool.inputSchema.properties ?? {}) as [string, Record<string, unknown>][];
      const silent = fields.filter(([, field]) => !field.description && !field.enum).map(([name]) => name);
      expect(silent, tool.name).toEqual([]);
    }
  });

  it('spells out the answer’s fields and the names of the fields of records inside it', () => {
    const check = tools.find((tool) => tool.name === 'check_availability');
    const properties = check?.outputSchema?.properties as ToolOutput | undefined;
    const conflicts = properties?.conflicts as { items: { properties: Record<string, unknown> } };

    expect(conflicts.items.properties).toMatchObject({ start: {}, kind: {}, event_id: {} });
    expect(properties?.timezone).toEqual({ type: 'string' });
  });

  it('lists no output schema for a tool that answers TOON text by default, and one for every other tool', () => {
    const withFormat = tools.filter((tool) => 'format' in (tool.inputSchema.properties ?? {}));

    expect(withFormat.map((tool) => tool.name)).toContain('list_events');
    for (const tool of tools) {
      expect(tool.outputSchema === undefined, tool.name).toBe(withFormat.includes(tool));
    }
  });
});
