import * as z from 'zod';
import { emailAddress } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import {
  calendarIdInput,
  EventReceiptOutput,
  eventIdInput,
  eventReceipt,
  returnEventInput,
} from './calendar-schemas.js';

const emails = z.array(emailAddress).max(100).default([]);

export const manageAttendeesTool = defineTool({
  name: 'manage_attendees',
  title: 'Add or remove attendees',
  description:
    'Adds and removes attendees of one event (or occurrence) without replacing the list. Reports added, ' +
    'removed and unchanged; when nothing changes nothing is written.',
  input: z
    .object({
      calendar_id: calendarIdInput.optional(),
      event_id: eventIdInput,
      add_attendees: emails.describe('Emails to invite.'),
      remove_attendees: emails.describe('Emails to remove.'),
      return_event: returnEventInput,
    })
    .refine((input) => input.add_attendees.length + input.remove_attendees.length > 0, {
      message: 'Give add_attendees or remove_attendees (or both).',
      path: ['add_attendees'],
    })
    .refine(
      (input) => {
        const removing = new Set(input.remove_attendees.map((email) => email.toLowerCase()));
        return !input.add_attendees.some((email) => removing.has(email.toLowerCase()));
      },
      {
        message: 'An email cannot be both added and removed; keep it in one list.',
        path: ['remove_attendees'],
      },
    ),
  output: EventReceiptOutput.extend({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    unchanged: z.array(z.string()),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  needs: 'calendar',
  run: async (deps, input, { principal }) => {
    const { event, ...change } = await deps.calendars.manageAttendees(principal, {
      ...(input.calendar_id ? { calendar_id: input.calendar_id } : {}),
      event_id: input.event_id,
      add: input.add_attendees,
      remove: input.remove_attendees,
    });
    return { ...eventReceipt(event, input.return_event), ...change };
  },
});
