import { z } from 'zod';
import { emailAddress } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { calendarIdInput, eventIdInput, WrittenEventOutput } from './calendar-schemas.js';

export const manageAttendeesTool = defineTool({
  name: 'manage_attendees',
  title: 'Add or remove attendees',
  description:
    'Adds and removes attendees of one event (or one occurrence) without replacing the whole list. ' +
    'Adding someone already invited or removing someone absent changes nothing.',
  input: z
    .object({
      calendar_id: calendarIdInput.optional(),
      event_id: eventIdInput,
      add_attendees: z.array(emailAddress).max(100).default([]).describe('Emails to invite.'),
      remove_attendees: z.array(emailAddress).max(100).default([]).describe('Emails to remove.'),
    })
    .refine((input) => input.add_attendees.length + input.remove_attendees.length > 0, {
      message: 'Give add_attendees or remove_attendees (or both).',
      path: ['add_attendees'],
    }),
  output: WrittenEventOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: async (deps, input, { principal }) => {
    const event = await deps.calendars.manageAttendees(principal, {
      ...(input.calendar_id ? { calendar_id: input.calendar_id } : {}),
      event_id: input.event_id,
      add: input.add_attendees,
      remove: input.remove_attendees,
    });
    return { event_id: event.id, event };
  },
});
