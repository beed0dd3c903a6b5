import * as z from 'zod';
import { CALENDAR_READ, defineTool } from '../../tool-definition.js';
import { calendarIdInput, eventIdInput, WrittenEventOutput } from './calendar-schemas.js';

export const getEventTool = defineTool({
  name: 'get_event',
  title: 'Get one event',
  description:
    'All fields of one event (or one occurrence of a series), including its etag for a later if_match, ' +
    'reminders, transparency, visibility and color.',
  input: z.object({ calendar_id: calendarIdInput.optional(), event_id: eventIdInput }),
  output: WrittenEventOutput,
  annotations: CALENDAR_READ,
  needs: 'calendar',
  run: async (deps, input, { principal }) => {
    const event = await deps.calendars.getEvent(principal, input.calendar_id, input.event_id);
    return { event_id: event.id, event };
  },
});
