import { z } from 'zod';
import { getAvailability } from '../../../core/availability/availability-queries.js';
import { calendarIdString, outputFormat, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { AVAILABILITY_READ, FreshnessOutput, SlotOutput, slotOptionsInput } from './availability-schemas.js';

export const getAvailabilityTool = defineTool({
  name: 'get_availability',
  title: 'Availability across calendars',
  description:
    'Merges several calendars into one busy/free view between start and end. privacy "opaque" (default) reports ' +
    'source_count 0 on every busy block, so nobody can tell how many calendars are behind it; "full" reports how ' +
    'many calendars are busy in the block. Free slots shorter than min_free_slot_minutes (default 30) are left out; ' +
    'working_hours and buffer_minutes work as in find_free_slots. calendar_ids defaults to every calendar you can read.',
  input: z.object({
    start: rfc3339('start of the window'),
    end: rfc3339('end of the window'),
    privacy: z
      .enum(['opaque', 'full'])
      .default('opaque')
      .describe('"opaque" hides source counts; "full" shows them.'),
    min_free_slot_minutes: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .default(30)
      .describe('Shortest free slot reported.'),
    calendar_ids: z.array(calendarIdString()).min(1).max(50).optional().describe('Calendars to merge.'),
    ...slotOptionsInput,
    format: outputFormat,
  }),
  output: z.object({
    busy: z.array(z.object({ start: z.string(), end: z.string(), source_count: z.number().int() })),
    free: z.array(SlotOutput),
    calendars_merged: z.number().int(),
    privacy: z.enum(['opaque', 'full']),
    freshness: z.array(FreshnessOutput),
  }),
  annotations: AVAILABILITY_READ,
  run: (deps, input, { principal }) => getAvailability(deps, principal, input),
});
