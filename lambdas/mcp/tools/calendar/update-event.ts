import { z } from 'zod';
import { defineTool } from '../../tool-definition.js';
import {
  calendarIdInput,
  eventFieldsInput,
  eventIdInput,
  ifMatchInput,
  scopeInput,
  toDomainPatch,
  WrittenEventOutput,
} from './calendar-schemas.js';

/** The patch fields every update takes, all optional. */
export const patchFields = z.object(eventFieldsInput).partial();

export const updateEventTool = defineTool({
  name: 'update_event',
  title: 'Update an event',
  description: 'Changes only the fields you pass, on one event or, with scope, on a series.',
  input: patchFields.extend({
    calendar_id: calendarIdInput.optional(),
    event_id: eventIdInput,
    scope: scopeInput,
    if_match: ifMatchInput.optional(),
  }),
  output: WrittenEventOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: async (deps, { calendar_id, event_id, scope, if_match, ...fields }, { principal }) => {
    const event = await deps.calendars.updateEvent(principal, {
      ...(calendar_id ? { calendar_id } : {}),
      event_id,
      patch: toDomainPatch(fields),
      scope,
      ...(if_match ? { if_match } : {}),
    });
    return { event_id: event.id, event };
  },
});
