import * as z from 'zod';
import { timeWriteWarnings } from '../../../core/calendar/write-warnings.js';
import { warningsField } from '../../../core/warnings.js';
import { defineTool } from '../../tool-definition.js';
import { warningsOutput } from '../warnings-output.js';
import {
  calendarIdInput,
  EventReceiptOutput,
  eventFieldsInput,
  eventIdInput,
  eventReceipt,
  ifMatchInput,
  returnEventInput,
  scopeInput,
  toDomainPatch,
} from './calendar-schemas.js';

/** The fields a patch sets, by name: what an update reports as changed. */
export function changedFields(fields: Record<string, unknown>): string[] {
  return Object.keys(fields).filter((field) => fields[field] !== undefined);
}

/** The patch fields every update takes, all optional. */
export const patchFields = z.object(eventFieldsInput).partial();

export const updateEventTool = defineTool({
  name: 'update_event',
  title: 'Update an event',
  description: 'Sets only the fields passed, on one event or its series (scope).',
  input: patchFields.extend({
    calendar_id: calendarIdInput.optional(),
    event_id: eventIdInput,
    scope: scopeInput,
    if_match: ifMatchInput.optional(),
    return_event: returnEventInput,
  }),
  output: EventReceiptOutput.extend({ changed: z.array(z.string()), warnings: warningsOutput }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  needs: 'calendar',
  run: async (deps, { calendar_id, event_id, scope, if_match, return_event, ...fields }, { principal }) => {
    const event = await deps.calendars.updateEvent(principal, {
      ...(calendar_id ? { calendar_id } : {}),
      event_id,
      patch: toDomainPatch(fields),
      scope,
      ...(if_match ? { if_match } : {}),
    });
    return {
      ...eventReceipt(event, return_event),
      changed: changedFields(fields),
      ...warningsField(timeWriteWarnings(fields, event, deps.clock.now())),
    };
  },
});
