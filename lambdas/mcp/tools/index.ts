import type { ToolDefinition } from '../tool-definition.js';
import { adjustTimestampTool } from './adjust-timestamp.js';
import { computeDurationTool } from './compute-duration.js';
import { convertTimezoneTool } from './convert-timezone.js';
import { getTemporalContextTool } from './get-temporal-context.js';

/** Every tool Meridian serves, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  getTemporalContextTool,
  convertTimezoneTool,
  computeDurationTool,
  adjustTimestampTool,
];
