import { type Toolsets, toolCatalogue } from '../tool-catalogue.js';
import { availabilityTools } from './toolsets/availability.js';
import { calendarTools } from './toolsets/calendar.js';
import { memoryTools } from './toolsets/memory.js';
import { rulesTools } from './toolsets/rules.js';
import { timeTools } from './toolsets/time.js';

/**
 * Every tool Meridian serves, by toolset, in the order tools/list shows them. A connection may
 * enable a subset (lambdas/mcp/toolsets.ts). Each toolset is a module of its own
 * (tools/toolsets/) so that the Lambda loads only the toolset a call names
 * (deferred-catalogue.ts); adding a toolset is a module there, a line here and one there.
 */
export const TOOLSETS = {
  time: timeTools,
  calendar: calendarTools,
  availability: availabilityTools,
  rules: rulesTools,
  memory: memoryTools,
} satisfies Toolsets;

/** The toolset names, for parsing a selection (`--toolsets time,calendar`). */
export const TOOLSET_NAMES: readonly string[] = Object.keys(TOOLSETS);

/** Every tool, loaded: the catalogue of runtimes that import their tools up front. */
export const allToolsCatalogue = toolCatalogue(TOOLSETS);
