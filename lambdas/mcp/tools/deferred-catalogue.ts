import { deferredToolCatalogue } from '../tool-catalogue.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { TOOLSETS } from './index.js';
import { TOOL_LOADERS } from './tool-loaders.js';

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
 * tools/list answered from the bundled listing (bundled-listing.ts, imported on the first
 * tools/list), filtered by toolset at request time. Serves the Lambda, whose cold start matters.
 */
export const deferredAllToolsCatalogue = deferredToolCatalogue(
  TOOLSET_LOADERS,
  async () => (await import('./bundled-listing.js')).bundledListing,
  TOOL_LOADERS,
);
