import type { ToolDefinition } from '../tool-definition.js';
import { resolveDatetimeTool } from './resolve-datetime.js';

/** Every tool Meridian serves, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [resolveDatetimeTool];
