import type { ToolDefinition } from '../tool-definition.js';

/** Every tool Meridian serves, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [];
