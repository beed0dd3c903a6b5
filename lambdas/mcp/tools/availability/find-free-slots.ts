import { z } from 'zod';
import { findFreeSlots } from '../../../core/availability/availability-queries.js';
import { outputFormat, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { AVAILABILITY_READ, FreshnessOutput, SlotOutput, slotOptionsInput } from './availability-schemas.js';

export const findFreeSlotsTool = defineTool({
  name: 'find_free_slots',
  title: 'Find free slots',
  description:
    'Free gaps in one calendar between start and end, optionally within working_hours and with ' +
    'buffer_minutes around events. Free (transparent), cancelled and declined events do not block. ' +
    '"freshness" says whether the answer came from the synced copy (and its age) or live.',
  input: z.object({
    calendar_id: z.string().min(1).describe('Calendar id from list_calendars.'),
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
