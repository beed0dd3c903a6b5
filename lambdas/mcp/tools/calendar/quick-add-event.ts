import * as z from 'zod';
import { pastWarnings } from '../../../core/calendar/write-warnings.js';
import { warningsField } from '../../../core/warnings.js';
import { compute } from '../../computation-turns.js';
import { timeAt } from '../../computations.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { ianaZone } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { ambiguityFields } from '../ambiguity-output.js';
import { warningsOutput } from '../warnings-output.js';
import { calendarIdInput, EventReceiptOutput, eventReceipt, returnEventInput } from './calendar-schemas.js';

export const quickAddEventTool = defineTool({
  name: 'quick_add_event',
  title: 'Create an event from a sentence',
  description:
    'Creates an event from text such as "Lunch with Alice tomorrow at noon at Cafe Rio for 30 minutes" or ' +
    '"Team dinner Friday 7pm-9pm" (time as in resolve_datetime; default length 60 minutes; a day without a time ' +
    'is all-day). Check "understood": "ignored" (unused words) and "alternatives" (other readings).',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    text: z.string().min(3).max(1024).describe('The sentence describing the event.'),
    timezone: ianaZone(
      'to read the time in. Omit for the calendar zone, else the configured default.',
    ).optional(),
    return_event: returnEventInput,
    idempotency_key: idempotencyKeyField,
  }),
  output: EventReceiptOutput.extend({
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
      ...ambiguityFields,
    }),
    warnings: warningsOutput,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  needs: 'calendar',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => {
    const calendar = await deps.calendars.calendarFor(principal, input.calendar_id, 'write');
    const zone = input.timezone ?? calendar.time_zone ?? deps.defaultTimezone;
    const { draft, reading } = await compute('readQuickAdd', {
      at: timeAt(deps),
      text: input.text,
      timezone: zone,
    });
    const event = await deps.calendars.createEvent(principal, calendar.calendar_id, draft);
    return {
      ...eventReceipt(event, input.return_event),
      understood: reading,
      ...warningsField(pastWarnings(event, deps.clock.now())),
    };
  },
});
