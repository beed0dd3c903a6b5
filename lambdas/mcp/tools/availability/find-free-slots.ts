import { z } from 'zod';
import { findFreeSlots } from '../../../core/availability/availability-queries.js';
import { calendarIdString, outputFormat, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { AVAILABILITY_READ, FreshnessOutput, SlotOutput, slotOptionsInput } from './availability-schemas.js';

export const findFreeSlotsTool = defineTool({
  name: 'find_free_slots',
  title: 'Find free slots',
  description:
    'Free time in one calendar between start and end: every gap of at least min_duration_minutes (default 30). ' +
    'Optional working_hours ("09:00-17:00", weekdays unless working_days says otherwise, in timezone or the ' +
    "calendar's zone) and buffer_minutes kept clear around events. Free (transparent), cancelled and declined " +
    'events do not block. "freshness" says whether the answer came from the synced shadow calendar (and how old) or live.',
  input: z.object({
    calendar_id: calendarIdString().describe('Calendar id from list_calendars.'),
    start: rfc3339('start of the search window'),
    end: rfc3339('end of the search window'),
    min_duration_minutes: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .default(30)
      .describe('Shortest slot worth returning.'),
    ...slotOptionsInput,
    format: outputFormat,
  }),
  output: z.object({ slots: z.array(SlotOutput), count: z.number().int(), freshness: FreshnessOutput }),
  annotations: AVAILABILITY_READ,
  run: (deps, input, { principal }) => findFreeSlots(deps, principal, input),
});
