import { deferredToolCatalogue } from '../tool-catalogue.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { ToolsetListing } from '../toolsets.js';
import type { TOOLSETS } from './index.js';
import { TOOL_LOADERS } from './tool-loaders.js';

/**
 * The tools/list answer of every toolset, computed when the Lambda is bundled (lib/constructs/lambda-bundling.ts
 * replaces this identifier with the listing through esbuild's `define`). Undefined wherever the
 * code runs unbundled (tests, tsx): the listing is then computed from the tools themselves.
 */
declare const __MERIDIAN_TOOL_LISTING__: ToolsetListing | undefined;

/** The identifier lambda bundling defines; exported so the bundler and this module agree. */
export const TOOL_LISTING_DEFINE = '__MERIDIAN_TOOL_LISTING__';

const bundledListing =
  typeof __MERIDIAN_TOOL_LISTING__ === 'undefined' ? undefined : __MERIDIAN_TOOL_LISTING__;

/**
 * Each toolset's tools, imported on their own: in the Lambda bundle each is a chunk, so a first
 * call of a time tool compiles neither the memory tools nor the calendar's. Typed against
 * TOOLSETS (a type-only import: nothing of index.ts is loaded) so a toolset cannot be missed.
 */
export const TOOLSET_LOADERS: { [Name in keyof typeof TOOLSETS]: () => Promise<readonly ToolDefinition[]> } =
  {
    time: async () => (await import('./toolsets/time.js')).timeTools,
    calendar: async () => (await import('./toolsets/calendar.js')).calendarTools,
    availability: async () => (await import('./toolsets/availability.js')).availabilityTools,
    rules: async () => (await import('./toolsets/rules.js')).rulesTools,
    memory: async () => (await import('./toolsets/memory.js')).memoryTools,
  };

/**
 * Every tool, each imported on the first tools/call that names it, on its own (TOOL_LOADERS), with
 * tools/list answered from the bundled listing, filtered by toolset at request time. Serves the
 * Lambda, whose cold start matters.
 */
export const deferredAllToolsCatalogue = deferredToolCatalogue(
  TOOLSET_LOADERS,
  bundledListing,
  Object.fromEntries(Object.values(TOOL_LOADERS).flatMap((loaders) => Object.entries(loaders))),
);
