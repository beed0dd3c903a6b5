import * as z from 'zod';
import { MAX_BATCH } from '../../../core/calendar/calendar-service.js';
import { DomainError, type ErrorCode } from '../../../core/errors.js';
import { fieldsDescribedBy } from '../../lean-json-schema.js';
import { defineTool } from '../../tool-definition.js';
import {
  calendarIdInput,
  eventIdInput,
  ifMatchInput,
  RequestedEventOutput,
  returnEventInput,
  scopeInput,
  toDomainPatch,
} from './calendar-schemas.js';
import { patchFields } from './update-event.js';

export const batchUpdateEventsTool = defineTool({
  name: 'batch_update_events',
  title: 'Update many events',
  description:
    `Up to ${MAX_BATCH} partial updates to events of one calendar; each succeeds (new etag) or fails (code, ` +
    'reason) on its own. If every update fails the call is an error: their common code, else BATCH_FAILED.',
  input: z.object({
    calendar_id: calendarIdInput.optional(),
    updates: z
      .array(
        fieldsDescribedBy(
          patchFields.extend({
            event_id: eventIdInput,
            scope: scopeInput,
            if_match: ifMatchInput.optional(),
          }),
          'update_event',
        ),
      )
      .min(1)
      .max(MAX_BATCH)
      .describe(`1–${MAX_BATCH} patches: event_id and the fields to change, as update_event takes them.`),
    return_event: returnEventInput,
  }),
  output: z.object({
    succeeded: z.number().int(),
    failed: z.number().int(),
    summary: z.string(),
    results: z.array(
      z.object({
        event_id: z.string(),
        ok: z.boolean(),
        etag: z.string().optional(),
        event: RequestedEventOutput,
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  needs: 'calendar',
  run: async (deps, { calendar_id, updates, return_event }, { principal, progress }) => {
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
    const failures = results.flatMap((r) => (r.error ? [{ event_id: r.event_id, ...r.error }] : []));
    if (failures.length === results.length) throw everyUpdateFailed(failures);
    const succeeded = results.length - failures.length;
    const failedIds = failures.map((f) => `${f.event_id} (${f.code})`);
    const summary = `${succeeded} succeeded, ${failures.length} failed${failedIds.length ? `: ${failedIds.join(', ')}` : ''}`;
    progress?.(summary);
    return {
      succeeded,
      failed: failures.length,
      summary,
      results: results.map(({ event_id, ok, event, error }) => ({
        event_id,
        ok,
        ...(event ? { etag: event.etag } : {}),
        ...(event && return_event ? { event } : {}),
        ...(error ? { error } : {}),
      })),
    };
  },
});

/**
 * A batch that changed nothing is a failure, not a success with a count of 0: its code is the
 * one every update failed with (so a batch of one reads like update_event), else BATCH_FAILED.
 */
function everyUpdateFailed(failures: { event_id: string; code: string; message: string }[]): DomainError {
  const codes = new Set(failures.map((f) => f.code));
  const code = codes.size === 1 ? (failures[0]!.code as ErrorCode) : 'BATCH_FAILED';
  const first = failures[0]!;
  return new DomainError(
    code,
    `All ${failures.length} updates failed and nothing changed; see error.failures for each event's reason ` +
      `(first: ${first.event_id}: ${first.message})`,
    { failures },
  );
}
