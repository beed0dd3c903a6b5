import type { ToolDefinition } from '../../tool-definition.js';
import { batchUpdateEventsTool } from '../calendar/batch-update-events.js';
import { createCalendarTool } from '../calendar/create-calendar.js';
import { createEventTool } from '../calendar/create-event.js';
import { deleteEventTool } from '../calendar/delete-event.js';
import { getEventTool } from '../calendar/get-event.js';
import { listCalendarsTool } from '../calendar/list-calendars.js';
import { listEventsTool } from '../calendar/list-events.js';
import { manageAttendeesTool } from '../calendar/manage-attendees.js';
import { quickAddEventTool } from '../calendar/quick-add-event.js';
import { respondToEventTool } from '../calendar/respond-to-event.js';
import { updateEventTool } from '../calendar/update-event.js';

/** The calendar toolset: calendars and their events, on every provider. In listing order. */
export const calendarTools: readonly ToolDefinition[] = [
  listCalendarsTool,
  listEventsTool,
  getEventTool,
  createEventTool,
  updateEventTool,
  batchUpdateEventsTool,
  deleteEventTool,
  quickAddEventTool,
  createCalendarTool,
  manageAttendeesTool,
  respondToEventTool,
];
