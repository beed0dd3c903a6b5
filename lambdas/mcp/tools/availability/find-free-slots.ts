import * as z from 'zod';
import { findFreeSlots } from '../../../core/availability/availability-queries.js';
import { calendarIdString, outputFormat, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { AVAILABILITY_READ, FreshnessOutput, SlotOutput, slotOptionsInput } from './availability-schemas.js';

export const findFreeSlotsTool = defineTool({
  name: 'find_free_slots',
  title: 'Find free slots',
  description:
    'Free time in one calendar: with slot_minutes, bookable slots of that length for book_slot; without, ' +
    'the free gaps. At most max_results ("more": true when cut). Times in UTC and local with the weekday. ' +
    'Free, cancelled and declined events do not block. "freshness": synced copy (and its age) or live.',
  input: z.object({
    calendar_id: calendarIdString().describe('Calendar id from list_calendars.'),
    start: rfc3339('start of the search window'),
    end: rfc3339('end of the search window'),
    slot_minutes: z
      .number()
      .int()
      .min(5)
      .max(1440)
      .optional()
      .describe('Length of the meeting to place, e.g. 30: returns slots of exactly this length.'),
    min_duration_minutes: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .default(30)
      .describe('Without slot_minutes: shortest gap worth returning.'),
    max_results: z.number().int().min(1).max(200).default(20).describe('Most slots returned (default 20).'),
    ...slotOptionsInput,
    format: outputFormat,
  }),
  output: z.object({
    slots: z.array(SlotOutput),
    count: z.number().int(),
    more: z.boolean().optional(),
    timezone: z.string(),
    freshness: FreshnessOutput,
  }),
  annotations: AVAILABILITY_READ,
  needs: 'availability',
  run: (deps, input, { principal, work }) => findFreeSlots(deps, principal, input, work),
});
