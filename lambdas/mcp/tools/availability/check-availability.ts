import * as z from 'zod';
import { checkAvailability } from '../../../core/availability/availability-queries.js';
import { calendarIdString, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { AVAILABILITY_READ, FreshnessOutput, LocalSpanOutput } from './availability-schemas.js';

export const checkAvailabilityTool = defineTool({
  name: 'check_availability',
  title: 'Is this slot free?',
  description:
    'Whether one slot of a calendar is free of events and booking holds (touching edges do not conflict), ' +
    'with the conflicts. Not a reservation: book_slot reserves.',
  input: z.object({
    calendar_id: calendarIdString().describe('Calendar id from list_calendars.'),
    start: rfc3339('start of the slot'),
    end: rfc3339('end of the slot'),
  }),
  output: z.object({
    available: z.boolean(),
    calendar_id: z.string(),
    conflicts: z.array(
      LocalSpanOutput.extend({
        kind: z.enum(['event', 'booking_hold']),
        event_id: z.string().optional(),
      }),
    ),
    timezone: z.string(),
    freshness: FreshnessOutput,
  }),
  annotations: AVAILABILITY_READ,
  needs: 'availability',
  run: (deps, input, { principal, work }) => checkAvailability(deps, principal, input, work),
});
