import { deferredToolCatalogue, type ToolLoaders } from '../tool-catalogue.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { ToolsetListing } from '../toolsets.js';
import type { TOOLSETS } from './index.js';

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
 * The time tools, each a chunk of its own: they share little but luxon, and a first call of
 * get_temporal_context or convert_timezone (luxon only) need not compile what resolve_datetime
 * and expand_rrule stand on (chrono-node, rrule, the expression grammar): about 150 KB.
 */
export const TIME_TOOL_LOADERS: ToolLoaders = {
  get_temporal_context: async () => (await import('./get-temporal-context.js')).getTemporalContextTool,
  resolve_datetime: async () => (await import('./resolve-datetime.js')).resolveDatetimeTool,
  convert_timezone: async () => (await import('./convert-timezone.js')).convertTimezoneTool,
  compute_duration: async () => (await import('./compute-duration.js')).computeDurationTool,
  adjust_timestamp: async () => (await import('./adjust-timestamp.js')).adjustTimestampTool,
  expand_rrule: async () => (await import('./expand-rrule.js')).expandRruleTool,
};

/**
 * Every tool, each toolset imported on the first tools/call that names one of its tools (a time
 * tool on its own), with
 * tools/list answered from the bundled listing, filtered by toolset at request time. Serves the
 * Lambda, whose cold start matters.
 */
export const deferredAllToolsCatalogue = deferredToolCatalogue(
  TOOLSET_LOADERS,
  bundledListing,
  TIME_TOOL_LOADERS,
);
