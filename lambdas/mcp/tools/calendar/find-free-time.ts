import * as z from 'zod';
import { findFreeTime } from '../../../core/calendar/free-busy.js';
import { calendarIdString, rfc3339 } from '../../schemas.js';
import { CALENDAR_READ, defineTool } from '../../tool-definition.js';
import { FreshnessOutput, LocalSpanOutput } from '../availability/availability-schemas.js';

export const findFreeTimeTool = defineTool({
  name: 'find_free_time',
  title: 'Busy blocks per calendar',
  description:
    'Free/busy: for each calendar (default: every readable one; none readable is FORBIDDEN), the merged busy ' +
    "blocks between start and end, in UTC and on the calendar's clock with the weekday. Free, cancelled and " +
    'declined events do not count. "freshness": synced copy (and its age) or live.',
  input: z.object({
    calendar_ids: z.array(calendarIdString()).min(1).max(50).optional().describe('Calendars to check.'),
    start: rfc3339('start of the range'),
    end: rfc3339('end of the range'),
  }),
  output: z.object({
    calendars: z.array(
      z.object({
        calendar_id: z.string(),
        timezone: z.string().optional(),
        busy: z.array(LocalSpanOutput),
        freshness: FreshnessOutput.optional(),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
    start: z.string(),
    end: z.string(),
  }),
  annotations: CALENDAR_READ,
  needs: 'availability',
  run: (deps, input, { principal, work }) => {
    return findFreeTime(deps, principal, input, work);
  },
});
