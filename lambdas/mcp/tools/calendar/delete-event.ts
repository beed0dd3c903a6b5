import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { calendarIdInput, eventIdInput, ifMatchInput, scopeInput } from './calendar-schemas.js';

export const deleteEventTool = defineTool({
  name: 'delete_event',
  title: 'Delete an event',
  description: 'Deletes an event, or with scope part or all of its series.',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    event_id: eventIdInput,
    scope: scopeInput,
    if_match: ifMatchInput.optional(),
  }),
  output: z.object({
    deleted: z.literal(true),
    calendar_id: z.string(),
    event_id: z.string(),
    scope: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  needs: 'calendar',
  run: async (deps, { calendar_id, event_id, scope, if_match }, { principal }) => {
    const deleted = await deps.calendars.deleteEvent(principal, {
      ...(calendar_id ? { calendar_id } : {}),
      event_id,
      scope,
      ...(if_match ? { if_match } : {}),
    });
    return { deleted: true as const, ...deleted };
  },
});
