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
import type { BookingSteps } from '../../lambdas/core/ports/index.js';
import { lambdaContext } from '../support/lambda-fetch.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

type StepHandlers = typeof import('../../lambdas/handlers/booking-steps.js');

/** Each step as a task state invokes its Lambda: the state's input as the event. */
function stepsOf(handlers: StepHandlers): BookingSteps {
  const invoke = (handler: StepHandlers['lockHandler']) => (input: unknown) =>
    Promise.resolve(handler(input, lambdaContext()));
  return {
    lock: invoke(handlers.lockHandler),
    verify: invoke(handlers.verifyHandler),
    write: invoke(handlers.writeHandler),
    release: invoke(handlers.releaseHandler),
    compensate: invoke(handlers.compensateHandler),
  };
}

describe('booking step Lambda handlers', () => {
  let dynalite: Awaited<ReturnType<typeof startDynalite>>;
  let runtime: TestRuntime;
  let calendarId: string;

  beforeAll(async () => {
    dynalite = await startDynalite();
    let handlers: StepHandlers | undefined;
    runtime = await startTestRuntime({
      endpoint: dynalite.endpoint,
      // book_slot's workflow invokes the handlers, not the steps composed in this process.
      booking: () => ({
        book: (input) => new LocalBookingWorkflow({ steps: stepsOf(handlers!), retryDelayMs: 0 }).book(input),
      }),
    });
    Object.assign(process.env, {
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      MERIDIAN_TABLE_NAME: runtime.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
    });
    handlers = await import('../../lambdas/handlers/booking-steps.js');
    calendarId = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Desk', time_zone: 'UTC' })).id;
  });

  afterAll(async () => {
    await runtime?.close();
    await dynalite?.close();
  });

  const book = (start: string, end: string, summary: string) =>
    runtime.booking.book(LOCAL_OWNER, { calendar_id: calendarId, start, end, summary });

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
