import type { ToolDefinition } from '../tool-definition.js';
import { expandRruleTool } from './expand-rrule.js';

/** Every tool Meridian serves, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [expandRruleTool];
