/**
 * The booking-step Lambdas as the state machine calls them: book_slot runs booking.asl.json
 * locally with each task state invoking its exported handler, which builds its own AWS
 * composition from the environment (only the endpoint points at a local DynamoDB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { LocalBookingWorkflow } from '../../lambdas/adapters/workflow/local-booking-workflow.js';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { isDomainError } from '../../lambdas/core/errors.js';
import type { BookingStepName, BookingSteps } from '../../lambdas/core/ports/index.js';
import { awsTableStore } from '../../lambdas/runtime/aws-table-store.js';
import { processEnvironment } from '../../lambdas/runtime/environment.js';
import { lambdaContext } from '../support/lambda-fetch.js';
import { startTableRequestLog } from '../support/table-request-log.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

type StepHandlers = typeof import('../../lambdas/handlers/booking-steps.js');

/**
 * Each step as a task state invokes its Lambda: the state's input as the event. `after` is told
 * which step just answered (or failed).
 */
function stepsOf(handlers: StepHandlers, after: (step: BookingStepName) => void): BookingSteps {
  const invoke = (step: BookingStepName, handler: StepHandlers['lockHandler']) => (input: unknown) =>
    Promise.resolve(handler(input, lambdaContext())).finally(() => after(step));
  return {
    lock: invoke('lock', handlers.lockHandler),
    verify: invoke('verify', handlers.verifyHandler),
    write: invoke('write', handlers.writeHandler),
    release: invoke('release', handlers.releaseHandler),
    compensate: invoke('compensate', handlers.compensateHandler),
  };
}

/** How many requests of each operation, e.g. `{ GetItem: 2, Query: 3 }`. */
function countsOf(operations: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const operation of operations) counts[operation] = (counts[operation] ?? 0) + 1;
  return counts;
}

describe('booking step Lambda handlers', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let tableLog: Awaited<ReturnType<typeof startTableRequestLog>>;
  let runtime: TestRuntime;
  let calendarId: string;
  /** The table requests of each step invoked so far (the step functions' own, not the tools'). */
  const requestsOf = new Map<BookingStepName, string[][]>();

  beforeAll(async () => {
    dynalite = await startDynalite();
    tableLog = await startTableRequestLog(dynalite.endpoint);
    let handlers: StepHandlers | undefined;
    const noteRequests = (step: BookingStepName) =>
      requestsOf.set(step, [...(requestsOf.get(step) ?? []), tableLog.take()]);
    runtime = await startTestRuntime({
      endpoint: dynalite.endpoint,
      // book_slot's workflow invokes the handlers, not the steps composed in this process.
      booking: () => ({
        book: (input) => {
          tableLog.take();
          const steps = stepsOf(handlers!, noteRequests);
          return new LocalBookingWorkflow({ steps, retryDelayMs: 0 }).book(input);
        },
      }),
    });
    Object.assign(process.env, {
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      MERIDIAN_TABLE_NAME: runtime.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      // The step functions reach the table through the log; the test runtime, directly.
      AWS_ENDPOINT_URL_DYNAMODB: tableLog.endpoint,
    });
    handlers = await import('../../lambdas/handlers/booking-steps.js');
    // The container's schema check began at import; a read through the container's table store is
    // released only with it. Counted requests then start where a container past its start stands,
    // however long the check took on a loaded machine (a read overlapping it is sent again after
    // the check brought this fresh table up to date).
    await awsTableStore(runtime.tableName, processEnvironment().awsConnection).get({
      pk: 'TEST#schema-check-done',
      sk: 'PROBE',
    });
    calendarId = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Desk', time_zone: 'UTC' })).id;
  });

  afterAll(async () => {
    await runtime?.close();
    await tableLog?.close();
    await dynalite?.close();
  });

  const book = (start: string, end: string, summary: string) =>
    runtime.booking.book(LOCAL_OWNER, { calendar_id: calendarId, start, end, summary });

  it('books a native calendar with the table round trips each step needs: Verify reads no calendar record', async () => {
    requestsOf.clear();

    await book('2031-03-05T09:00:00Z', '2031-03-05T10:00:00Z', 'Counted');

    expect(
      Object.fromEntries([...requestsOf].map(([step, [requests]]) => [step, countsOf(requests!)])),
    ).toEqual({
      // The claim, then the lock item read and written. The schema check is not among them: the
      // container ran it when it started, before its first invocation (aws-schema-version.ts).
      lock: { PutItem: 2, GetItem: 1 },
      // The hold, beside one listing of its events (its three indexes), from the calendar's
      // record the booking carries: the native calendar is its own live source, not read twice.
      verify: { GetItem: 1, Query: 3 },
      // The hold before and after the event is written, and the commit.
      write: { GetItem: 2, PutItem: 2 },
      // The lock item and the idempotency record, each read and written: no registry read.
      release: { GetItem: 2, PutItem: 2 },
    });
  });

  it('books a slot through Lock, Verify, Write and Release: the event is in the calendar', async () => {
    const booking = await book('2031-03-03T09:00:00Z', '2031-03-03T10:00:00Z', 'Planning');

    const event = await runtime.calendars.getEvent(LOCAL_OWNER, calendarId, booking.event_id);
    expect(event).toMatchObject({ summary: 'Planning' });
    expect(booking).toMatchObject({ calendar_id: calendarId, idempotent_replay: false });
  });

  it('refuses an overlapping slot with SLOT_TAKEN, and Compensate leaves no hold behind', async () => {
    await book('2031-03-04T09:00:00Z', '2031-03-04T10:00:00Z', 'First');

    const error = await book('2031-03-04T09:30:00Z', '2031-03-04T10:30:00Z', 'Second').catch((e) => e);
    const after = await book('2031-03-04T10:00:00Z', '2031-03-04T11:00:00Z', 'Right after');

    expect(isDomainError(error, 'SLOT_TAKEN')).toBe(true);
    expect(after.summary).toBe('Right after');
  });
});
