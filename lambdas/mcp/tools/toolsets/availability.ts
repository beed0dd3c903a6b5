import type { ToolDefinition } from '../../tool-definition.js';
import { checkAvailabilityTool } from '../availability/check-availability.js';
import { findFreeSlotsTool } from '../availability/find-free-slots.js';
import { getAvailabilityTool } from '../availability/get-availability.js';
import { bookSlotTool } from '../booking/book-slot.js';
import { findFreeTimeTool } from '../calendar/find-free-time.js';

/** The availability toolset: free time, slots and booking. In listing order. */
export const availabilityTools: readonly ToolDefinition[] = [
  findFreeTimeTool,
  findFreeSlotsTool,
  checkAvailabilityTool,
  getAvailabilityTool,
  bookSlotTool,
];
