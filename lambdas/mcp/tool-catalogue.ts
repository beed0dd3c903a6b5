import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { once } from '../core/once.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * The tools a server offers: what tools/list shows, and the definition tools/call runs. Both are
 * asynchronous so that a catalogue may load its tools on first use (see deferredToolCatalogue).
 */
export interface ToolCatalogue {
  listing(): Promise<Tool[]>;
  find(name: string): Promise<ToolDefinition | undefined>;
}

/** A tool as tools/list shows it: JSON Schemas generated from its zod schemas. */
export function describeTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as Tool['inputSchema'],
    outputSchema: z.toJSONSchema(tool.output, { io: 'output' }) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * A catalogue over tools already loaded. The listing is built on the first tools/list and kept
 * for the process: JSON Schema generation is the costly part, and a stateless server creates a
 * new `Server` for every request.
 *
 * @example
 * const catalogue = toolCatalogue([pingTool]);
 * (await catalogue.listing()).map((t) => t.name); // ['ping']
 */
export function toolCatalogue(tools: readonly ToolDefinition[]): ToolCatalogue {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listing = once(async () => tools.map(describeTool));
  return { listing, find: async (name) => byName.get(name) };
}

/**
 * A catalogue whose tools are imported on the first tools/call. With `listing` given (the
 * Lambda bundle carries it, computed at bundle time), tools/list is answered without loading a
 * single tool: a cold start that only lists tools compiles none of their code.
 */
export function deferredToolCatalogue(
  load: () => Promise<readonly ToolDefinition[]>,
  listing?: readonly Tool[],
): ToolCatalogue {
  const loaded = once(async () => toolCatalogue(await load()));
  return {
    listing: async () => (listing ? [...listing] : (await loaded()).listing()),
    find: async (name) => (await loaded()).find(name),
  };
}
