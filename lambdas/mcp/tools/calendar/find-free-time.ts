import { z } from 'zod';
import { findFreeTime } from '../../../core/calendar/free-busy.js';
import { calendarIdString, rfc3339 } from '../../schemas.js';
import { CALENDAR_READ, defineTool } from '../../tool-definition.js';
import { FreshnessOutput } from '../availability/availability-schemas.js';

export const findFreeTimeTool = defineTool({
  name: 'find_free_time',
  title: 'Busy blocks per calendar',
  description:
    'Free/busy: for each calendar, the merged busy blocks between start and end (UTC). Events marked free ' +
    '(transparent), cancelled or declined do not count. Omit calendar_ids to check every calendar this key can read. ' +
    '"freshness" says whether each answer came from the synced shadow calendar (and its age) or live.',
  input: z.object({
    calendar_ids: z.array(calendarIdString()).min(1).max(50).optional().describe('Calendars to check.'),
    start: rfc3339('start of the range'),
    end: rfc3339('end of the range'),
  }),
  output: z.object({
    calendars: z.array(
      z.object({
        calendar_id: z.string(),
        busy: z.array(z.object({ start: z.string(), end: z.string() })),
        freshness: FreshnessOutput.optional(),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
    start: z.string(),
    end: z.string(),
  }),
  annotations: CALENDAR_READ,
  run: (deps, input, { principal }) => {
    return findFreeTime(deps, principal, input);
  },
});
