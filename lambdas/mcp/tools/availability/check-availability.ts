import { z } from 'zod';
import { checkAvailability } from '../../../core/availability/availability-queries.js';
import { calendarIdString, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { AVAILABILITY_READ, FreshnessOutput } from './availability-schemas.js';

export const checkAvailabilityTool = defineTool({
  name: 'check_availability',
  title: 'Is this slot free?',
  description:
    'Whether one slot of a calendar is free: false when an event or an active booking hold (a book_slot in ' +
    'progress or just made) covers any part of it; an event that only touches its edge does not. Lists the ' +
    'conflicts. To reserve the slot safely, use book_slot: a free answer here is not a reservation.',
  input: z.object({
    calendar_id: calendarIdString().describe('Calendar id from list_calendars.'),
    start: rfc3339('start of the slot'),
    end: rfc3339('end of the slot'),
  }),
  output: z.object({
    available: z.boolean(),
    calendar_id: z.string(),
    conflicts: z.array(
      z.object({
        kind: z.enum(['event', 'booking_hold']),
        start: z.string(),
        end: z.string(),
        event_id: z.string().optional(),
      }),
    ),
    freshness: FreshnessOutput,
  }),
  annotations: AVAILABILITY_READ,
  run: (deps, input, { principal }) => checkAvailability(deps, principal, input),
});
