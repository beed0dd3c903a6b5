import * as z from 'zod';
import { ResponseStatus } from '../../../core/calendar/event.js';
import { respondToEvent } from '../../../core/calendar/respond-to-event.js';
import { defineTool } from '../../tool-definition.js';
import {
  calendarIdInput,
  EventReceiptOutput,
  eventIdInput,
  eventReceipt,
  ifMatchInput,
  returnEventInput,
  scopeInput,
} from './calendar-schemas.js';

export const respondToEventTool = defineTool({
  name: 'respond_to_event',
  title: "Answer an event as the calendar's owner",
  description:
    "Records the calendar owner's response on their own attendee entry, as the provider keeps it " +
    '(Google responseStatus, Outlook accept/decline, CalDAV PARTSTAT). A declined event stops blocking their time in availability and booking.',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    event_id: eventIdInput,
    response: ResponseStatus,
    scope: scopeInput,
    if_match: ifMatchInput.optional(),
    return_event: returnEventInput,
  }),
  output: EventReceiptOutput.extend({
    attendee: z.string(),
    response: ResponseStatus,
    previous: ResponseStatus,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // The availability slice: it carries the shadow calendar the answer is recorded in.
  needs: 'availability',
  run: async (deps, { return_event, ...input }, { principal }) => {
    const { event, attendee, previous } = await respondToEvent(deps.calendars, principal, {
      ...(input.calendar_id ? { calendar_id: input.calendar_id } : {}),
      event_id: input.event_id,
      response: input.response,
      scope: input.scope,
      ...(input.if_match ? { if_match: input.if_match } : {}),
    });
    // A synced calendar's busy time is read from the shadow copy: it shows the answer now, not
    // after the next sync (a no-op for native calendars, which are read directly).
    await deps.shadow.recordBooking(event.calendar_id, event);
    return { ...eventReceipt(event, return_event), attendee, response: input.response, previous };
  },
});
