import { z } from 'zod';
import { requireZone } from '../../../core/time/zones.js';
import { calendarIdString, ianaZone } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';

export const createCalendarTool = defineTool({
  name: 'create_calendar',
  title: 'Create a calendar',
  description:
    'Creates a calendar: a native Meridian calendar by default, or a secondary calendar on the account ' +
    'that holds calendar_id (Google or CalDAV, needs write access to it). Only this API key is granted ' +
    'the new calendar (read and write); other keys get access only when the owner grants it.',
  input: z.object({
    summary: z.string().min(1).max(256).describe('Calendar name.'),
    description: z.string().max(2048).optional(),
    time_zone: ianaZone('of the calendar.').optional(),
    calendar_id: calendarIdString()
      .optional()
      .describe(
        'An existing calendar on the account that should own the new one; omit for a native calendar.',
      ),
  }),
  output: z.object({ calendar_id: z.string(), calendar: z.record(z.string(), z.unknown()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (deps, input, { principal }) => {
    if (input.time_zone) requireZone(input.time_zone, 'time_zone');
    const calendar = await deps.calendars.createCalendar(principal, {
      name: input.summary,
      ...(input.description ? { description: input.description } : {}),
      ...(input.time_zone ? { time_zone: input.time_zone } : {}),
      ...(input.calendar_id ? { parent_calendar_id: input.calendar_id } : {}),
    });
    return { calendar_id: calendar.id, calendar: { ...calendar } };
  },
});
