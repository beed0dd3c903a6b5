import { z } from 'zod';
import { MAX_BATCH } from '../../../core/calendar/calendar-service.js';
import { defineTool } from '../../tool-definition.js';
import {
  calendarIdInput,
  EventViewOutput,
  eventIdInput,
  ifMatchInput,
  scopeInput,
  toDomainPatch,
} from './calendar-schemas.js';
import { patchFields } from './update-event.js';

export const batchUpdateEventsTool = defineTool({
  name: 'batch_update_events',
  title: 'Update many events',
  description:
    `Applies up to ${MAX_BATCH} partial updates to events of one calendar, concurrently. Each update succeeds ` +
    'or fails on its own: a failure never undoes the others and is reported with its code and reason.',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    updates: z
      .array(
        patchFields.extend({ event_id: eventIdInput, scope: scopeInput, if_match: ifMatchInput.optional() }),
      )
      .min(1)
      .max(MAX_BATCH)
      .describe(`1–${MAX_BATCH} patches, each with event_id and the fields to change.`),
  }),
  output: z.object({
    succeeded: z.number().int(),
    failed: z.number().int(),
    summary: z.string(),
    results: z.array(
      z.object({
        event_id: z.string(),
        ok: z.boolean(),
        event: EventViewOutput.optional(),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: async (deps, { calendar_id, updates }, { principal, progress }) => {
    progress?.(`Applying ${updates.length} update(s) to ${calendar_id ?? 'the default calendar'}.`);
    const results = await deps.calendars.batchUpdate(
      principal,
      calendar_id,
      updates.map(({ event_id, scope, if_match, ...fields }) => ({
        event_id,
        scope,
        ...(if_match ? { if_match } : {}),
        patch: toDomainPatch(fields),
      })),
    );
    const succeeded = results.filter((r) => r.ok).length;
    const failed = results.length - succeeded;
    const failures = results.filter((r) => !r.ok).map((r) => `${r.event_id} (${r.error?.code})`);
    const summary = `${succeeded} succeeded, ${failed} failed${failures.length ? `: ${failures.join(', ')}` : ''}`;
    progress?.(summary);
    return { succeeded, failed, summary, results };
  },
});
