import { ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { once } from '../core/once.js';
import { leanInputSchema, leanOutputSchema } from './lean-json-schema.js';
import type { ToolDefinition } from './tool-definition.js';
import { isEnabled, notEnabledMessage, type ToolsetListing, type ToolsetSelection } from './toolsets.js';

/** Tools grouped by toolset, in listing order (see lambdas/mcp/tools/index.ts). */
export type Toolsets = Readonly<Record<string, readonly ToolDefinition[]>>;

/**
 * The tools a server offers: what tools/list shows, grouped by toolset, and the definition
 * tools/call runs. Both are asynchronous so that a catalogue may load its tools on first use
 * (see deferredToolCatalogue).
 */
export interface ToolCatalogue {
  listing(): Promise<ToolsetListing>;
  find(name: string): Promise<ToolDefinition | undefined>;
  /** The toolsets' names, in listing order. */
  toolsetNames(): Promise<readonly string[]>;
  /** The toolset a tool belongs to; undefined for a name no toolset has. */
  toolsetOf(name: string): Promise<string | undefined>;
}

/**
 * A tool as tools/list shows it: JSON Schemas generated from its zod schemas, made lean (see
 * lean-json-schema.ts) because every client pays for the listing on every conversation. A tool
 * that takes `format` lists no outputSchema: its default TOON answer is text only, and the spec
 * owes structuredContent on every answer of a tool that lists one (ADR 0024).
 */
export function describeTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: leanInputSchema(z.toJSONSchema(tool.input, { io: 'input' })) as Tool['inputSchema'],
    ...(takesFormat(tool)
      ? {}
      : {
          outputSchema: leanOutputSchema(
            z.toJSONSchema(tool.output, { io: 'output' }),
          ) as Tool['outputSchema'],
        }),
    annotations: tool.annotations,
  };
}

/** Does the tool answer in a `format` the caller picks (TOON by default, JSON on request)? */
export function takesFormat(tool: ToolDefinition): boolean {
  return 'format' in tool.input.shape;
}

/** tools/list of every toolset: what the Lambda bundle carries and catalogues answer. */
export function describeToolsets(toolsets: Toolsets): ToolsetListing {
  return Object.fromEntries(Object.entries(toolsets).map(([name, tools]) => [name, tools.map(describeTool)]));
}

/**
 * A catalogue over tools already loaded. The listing is built on the first tools/list and kept
 * for the process: JSON Schema generation is the costly part, and a stateless server creates a
 * new `Server` for every request.
 *
 * @example
 * const catalogue = toolCatalogue({ time: [pingTool] });
 * (await catalogue.listing()).time.map((t) => t.name); // ['ping']
 */
export function toolCatalogue(toolsets: Toolsets): ToolCatalogue {
  const byName = new Map(Object.values(toolsets).flatMap((tools) => tools.map((tool) => [tool.name, tool])));
  const toolsetByName = new Map(
    Object.entries(toolsets).flatMap(([toolset, tools]) => tools.map((tool) => [tool.name, toolset])),
  );
  const listing = once(async () => describeToolsets(toolsets));
  return {
    listing,
    find: async (name) => byName.get(name),
    toolsetNames: async () => Object.keys(toolsets),
    toolsetOf: async (name) => toolsetByName.get(name),
  };
}

/** Each toolset's tools, imported when first needed (see lambdas/mcp/tools/deferred-catalogue.ts). */
export type ToolsetLoaders = Readonly<Record<string, () => Promise<readonly ToolDefinition[]>>>;

/** Single tools by name, each imported when first called without its toolset's other tools. */
export type ToolLoaders = Readonly<Record<string, () => Promise<ToolDefinition>>>;

/**
 * A catalogue whose tools are imported on first use. With a `listing` (the Lambda bundle carries
 * one, computed at bundle time, in a module of its own) tools/list is answered without loading a
 * single tool; with `toolLoaders` (each toolset's tools by name) a tools/call loads only the tool
 * it names and finds its toolset without the listing: a cold start that lists tools compiles none
 * of their code, one that calls a time tool neither the memory tools' nor the listing. Whatever
 * is missing is computed from the toolsets, loaded on first use.
 */
export function deferredToolCatalogue(
  loaders: ToolsetLoaders,
  /** The bundled listing, when there is one (undefined when the code runs unbundled). */
  listing: () => Promise<ToolsetListing | undefined> = async () => undefined,
  /** Each toolset's tools by name, each imported on its own. */
  toolLoaders: Readonly<Record<string, ToolLoaders>> = {},
): ToolCatalogue {
  const toolsets = new Map(Object.entries(loaders).map(([name, load]) => [name, once(load)]));
  const tools = new Map(
    Object.entries(toolLoaders).flatMap(([toolset, byName]) =>
      Object.entries(byName).map(([name, load]) => [name, { toolset, load: once(load) }] as const),
    ),
  );
  const everything = once(async () => {
    const loaded = await Promise.all(
      [...toolsets].map(async ([name, load]) => [name, await load()] as const),
    );
    return toolCatalogue(Object.fromEntries(loaded));
  });
  const bundled = once(listing);
  // With tool loaders a name they lack is no tool: a call naming one loads nothing.
  const byLoaders = tools.size > 0;
  return {
    listing: async () => (await bundled()) ?? (await everything()).listing(),
    find: async (name) => (byLoaders ? tools.get(name)?.load() : (await everything()).find(name)),
    toolsetNames: async () => [...toolsets.keys()],
    toolsetOf: async (name) => (byLoaders ? tools.get(name)?.toolset : (await everything()).toolsetOf(name)),
  };
}

/**
 * The tool tools/call names, if the connection enabled its toolset. Throws -32602 otherwise: for
 * a name no toolset has, and for a tool outside the selection (naming its toolset and how to
 * enable it) — a tool that is not listed is not callable either.
 */
export async function findEnabledTool(
  catalogue: ToolCatalogue,
  name: string,
  selection: ToolsetSelection,
): Promise<ToolDefinition> {
  const toolset = await catalogue.toolsetOf(name);
  const tool = toolset === undefined ? undefined : await catalogue.find(name);
  if (toolset === undefined || tool === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown tool "${name}". Call tools/list to see the available tools.`,
    );
  }
  if (!isEnabled(selection, toolset)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      notEnabledMessage(name, toolset, selection ?? []),
    );
  }
  return tool;
}
