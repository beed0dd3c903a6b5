import * as z from 'zod';
import { DEFAULT_LIST_RESULTS, listEvents, MAX_LIST_RESULTS } from '../../../core/calendar/event-listing.js';
import { MAX_TOKEN_LENGTH } from '../../../core/input-limits.js';
import { boundedString, ianaZone, outputFormat, rfc3339 } from '../../schemas.js';
import { CALENDAR_READ, defineTool } from '../../tool-definition.js';
import { calendarIdInput, EventViewOutput } from './calendar-schemas.js';
import { eventRows } from './event-rows.js';

export const listEventsTool = defineTool({
  name: 'list_events',
  title: 'List events',
  description:
    'Events overlapping a window (default: the next 30 days), from one calendar or every readable one merged ' +
    'by start; a calendar that fails is listed in "errors". count is this page\'s events, not the total: ' +
    'has_more=true means next_page_token brings more.',
  input: z.object({
    calendar_id: calendarIdInput.optional().describe('Omit to read every readable calendar.'),
    start: rfc3339('start of the window').optional(),
    end: rfc3339('end of the window').optional(),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIST_RESULTS)
      .default(DEFAULT_LIST_RESULTS)
      .describe('Events per page (1–2500).'),
    timezone: ianaZone(
      "for local times (start_local, end_local). Default: each event's own zone.",
    ).optional(),
    page_token: boundedString(MAX_TOKEN_LENGTH)
      .optional()
      .describe('next_page_token from the previous page of the same query.'),
    single_events: z.boolean().default(true).describe('Expand series into occurrences.'),
    order_by: z.enum(['start_time', 'updated']).default('start_time'),
    query: z
      .string()
      .max(256)
      .optional()
      .describe('Free-text filter on title, description, location and attendees.'),
    format: outputFormat,
  }),
  output: z.object({
    events: z.array(EventViewOutput),
    count: z.number().int(),
    has_more: z.boolean(),
    next_page_token: z.string().optional(),
    calendars_queried: z.array(z.string()),
    errors: z.array(z.object({ calendar_id: z.string(), code: z.string(), message: z.string() })).optional(),
    window: z.object({ start: z.string(), end: z.string() }),
  }),
  annotations: CALENDAR_READ,
  needs: 'calendar',
  run: (deps, input, { principal, work }) => {
    return listEvents(deps.calendars, principal, input, work);
  },
  toonView: ({ events, ...rest }) => ({ ...rest, events: eventRows(events) }),
});
