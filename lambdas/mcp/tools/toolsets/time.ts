import type { ToolDefinition } from '../../tool-definition.js';
import { adjustTimestampTool } from '../adjust-timestamp.js';
import { computeDurationTool } from '../compute-duration.js';
import { convertTimezoneTool } from '../convert-timezone.js';
import { expandRruleTool } from '../expand-rrule.js';
import { getTemporalContextTool } from '../get-temporal-context.js';
import { resolveDatetimeTool } from '../resolve-datetime.js';

/** The time toolset: zones, natural-language expressions, DST-aware arithmetic, recurrence. In listing order. */
export const timeTools: readonly ToolDefinition[] = [
  getTemporalContextTool,
  resolveDatetimeTool,
  convertTimezoneTool,
  computeDurationTool,
  adjustTimestampTool,
  expandRruleTool,
];
