import * as z from 'zod';
import { timeWriteWarnings } from '../../../core/calendar/write-warnings.js';
import { warningsField } from '../../../core/warnings.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { defineTool } from '../../tool-definition.js';
import { warningsOutput } from '../warnings-output.js';
import {
  calendarIdInput,
  EventReceiptOutput,
  eventFieldsInput,
  eventReceipt,
  returnEventInput,
  toDomainPatch,
} from './calendar-schemas.js';

export const createEventTool = defineTool({
  name: 'create_event',
  title: 'Create an event',
  description:
    'Creates a one-off, all-day or recurring event (recurrence: ["RRULE:…"]). Returns its id and etag.',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    summary: eventFieldsInput.summary,
    start: eventFieldsInput.start,
    end: eventFieldsInput.end,
    description: eventFieldsInput.description.optional(),
    location: eventFieldsInput.location.optional(),
    attendees: eventFieldsInput.attendees.optional(),
    reminders: eventFieldsInput.reminders.optional(),
    recurrence: eventFieldsInput.recurrence.optional(),
    status: eventFieldsInput.status.optional(),
    transparency: eventFieldsInput.transparency.optional(),
    visibility: eventFieldsInput.visibility.optional(),
    color_id: eventFieldsInput.color_id.optional(),
    return_event: returnEventInput,
    idempotency_key: idempotencyKeyField,
  }),
  output: EventReceiptOutput.extend({ warnings: warningsOutput }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  needs: 'calendar',
  idempotencyKey: true,
  run: async (deps, { calendar_id, return_event, ...fields }, { principal }) => {
    const event = await deps.calendars.createEvent(principal, calendar_id, toDomainPatch(fields));
    return {
      ...eventReceipt(event, return_event),
      ...warningsField(timeWriteWarnings(fields, event, deps.clock.now())),
    };
  },
});
