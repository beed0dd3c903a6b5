import * as z from 'zod';
import { getAvailability } from '../../../core/availability/availability-queries.js';
import { calendarIdString, outputFormat, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import {
  AVAILABILITY_READ,
  FreshnessOutput,
  LocalSpanOutput,
  SlotOutput,
  slotOptionsInput,
} from './availability-schemas.js';

export const getAvailabilityTool = defineTool({
  name: 'get_availability',
  title: 'Availability across calendars',
  description:
    'Merges calendars (default: every readable one) into one busy/free view in UTC and local time. privacy ' +
    '"opaque" (default) hides how many calendars are busy in a block; "full" shows it (source_count).',
  input: z.object({
    start: rfc3339('start of the window'),
    end: rfc3339('end of the window'),
    privacy: z.enum(['opaque', 'full']).default('opaque'),
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
    busy: z.array(LocalSpanOutput.extend({ source_count: z.number().int().optional() })),
    free: z.array(SlotOutput),
    calendars_merged: z.number().int(),
    privacy: z.enum(['opaque', 'full']),
    timezone: z.string(),
    freshness: z.array(FreshnessOutput),
  }),
  annotations: AVAILABILITY_READ,
  needs: 'availability',
  run: (deps, input, { principal, work }) => getAvailability(deps, principal, input, work),
});
