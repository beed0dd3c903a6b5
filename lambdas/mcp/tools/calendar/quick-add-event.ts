import { z } from 'zod';
import { readQuickAdd } from '../../../core/calendar/quick-add.js';
import { inOwnTurn } from '../../computation-turns.js';
import { ianaZone } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { calendarIdInput, EventViewOutput } from './calendar-schemas.js';

export const quickAddEventTool = defineTool({
  name: 'quick_add_event',
  title: 'Create an event from a sentence',
  description:
    'Creates an event from text such as "Lunch with Alice tomorrow at noon at Cafe Rio": the time is read ' +
    'with the same grammar as resolve_datetime, the words before it become the title, "at …" after it the ' +
    'location, "for 30 minutes" the length (default 60), a range ("7pm-9pm", "14:00 to 15:30") start and end. ' +
    'A day without a time makes an all-day event. Returns the event and what was understood — check ' +
    '"understood": "ignored" lists unused words, "ambiguous"/"alternatives" other readings of the time.',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    text: z.string().min(3).max(1024).describe('The sentence describing the event.'),
    timezone: ianaZone(
      'to read the time in. Omit for the calendar zone, else the configured default.',
    ).optional(),
  }),
  output: z.object({
    event_id: z.string(),
    event: EventViewOutput,
    understood: z.object({
      summary: z.string(),
      time_expression: z.string(),
      location: z.string().optional(),
      all_day: z.boolean(),
      start: z.string(),
      end: z.string(),
      duration_minutes: z.number(),
      timezone: z.string(),
      ignored: z
        .array(z.string())
        .describe('Words used for no field: check them, then update_event if needed.'),
      ambiguous: z
        .literal(true)
        .optional()
        .describe('As resolve_datetime: the time has another common reading.'),
      rule: z.string().optional(),
      alternatives: z
        .array(
          z.object({
            resolved_utc: z.string(),
            resolved_local: z.string(),
            interpretation: z.string(),
            rule: z.string(),
          }),
        )
        .optional(),
    }),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (deps, input, { principal }) => {
    const calendar = await deps.calendars.calendarFor(principal, input.calendar_id, 'write');
    const zone = input.timezone ?? calendar.time_zone ?? deps.defaultTimezone;
    const { draft, reading } = await inOwnTurn(() => readQuickAdd(deps, input.text, zone));
    const event = await deps.calendars.createEvent(principal, calendar.calendar_id, draft);
    return { event_id: event.id, event, understood: reading };
  },
});
