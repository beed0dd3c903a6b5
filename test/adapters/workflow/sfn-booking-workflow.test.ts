import type { StartSyncExecutionCommand, StartSyncExecutionCommandOutput } from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { SfnBookingWorkflow } from '../../../lambdas/adapters/workflow/sfn-booking-workflow.js';
import type { BookingInput } from '../../../lambdas/core/booking/booking-schemas.js';
import { DomainError } from '../../../lambdas/core/errors.js';

const ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:BookingStateMachine';
const input: BookingInput = {
  booking_id: '0b1f6c1e-7a0e-4a43-9d7f-0b6f3f0b2a11',
  idempotency_key: 'k',
  request_hash: 'h',
  principal: 'key:k1',
  calendar: {
    calendar_id: 'google/c1/primary',
    provider: 'google',
    connection_id: 'c1',
    native_id: 'primary',
    name: 'C',
    label: null,
    primary: true,
    access_role: 'owner',
    created_at: '2026-01-01T00:00:00Z',
  },
  start: '2026-06-02T10:00:00+00:00',
  end: '2026-06-02T11:00:00+00:00',
  summary: 'S',
};
const booking = {
  booking_id: input.booking_id,
  event_id: 'e1',
  calendar_id: 'google/c1/primary',
  summary: 'S',
  start: input.start,
  end: input.end,
  idempotent_replay: false,
};

/** An SFN client that answers one StartSyncExecution and remembers what it was asked. */
function answering(output: Partial<StartSyncExecutionCommandOutput>) {
  const sent: StartSyncExecutionCommand[] = [];
  const client = {
    send: async (command: StartSyncExecutionCommand) => {
      sent.push(command);
      return { $metadata: {}, ...output } as StartSyncExecutionCommandOutput;
    },
  };
  return { workflow: new SfnBookingWorkflow({ client, stateMachineArn: ARN }), sent };
}

describe('SfnBookingWorkflow', () => {
  it('starts one synchronous execution of the state machine with the validated input', async () => {
    const { workflow, sent } = answering({ status: 'SUCCEEDED', output: JSON.stringify(booking) });

    const result = await workflow.book(input);

    expect(result).toEqual(booking);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toEqual({
      stateMachineArn: ARN,
      name: `booking-${input.booking_id}`,
      input: JSON.stringify(input),
    });
  });

  it('maps the Fail state (error = code, cause = JSON) back to the DomainError', async () => {
    const cause = { code: 'LOCK_CONTENDED', message: 'Retry in 12 s.', details: { retry_after_seconds: 12 } };
    const { workflow } = answering({
      status: 'FAILED',
      error: 'LOCK_CONTENDED',
      cause: JSON.stringify(cause),
    });

    const error = await workflow.book(input).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject(cause);
  });

  it('maps a failure outside the Fail state (a Lambda error, a timeout) to an internal error', async () => {
    const lambdaCause = JSON.stringify({
      errorType: 'Error',
      errorMessage: 'Cannot read properties of undefined',
      trace: [],
    });
    const { workflow } = answering({ status: 'FAILED', error: 'Error', cause: lambdaCause });
    const { workflow: timedOut } = answering({ status: 'TIMED_OUT', executionArn: `${ARN}:x` });

    const failed = await workflow.book(input).catch((e: unknown) => e);
    const late = await timedOut.book(input).catch((e: unknown) => e);

    expect(failed).not.toBeInstanceOf(DomainError);
    expect((failed as Error).message).toMatch(/^The booking workflow failed: Error: /);
    expect(late).not.toBeInstanceOf(DomainError);
    expect((late as Error).message).toMatch(/ended TIMED_OUT/);
  });

  it('refuses an output that is not a booking', async () => {
    const { workflow } = answering({ status: 'SUCCEEDED', output: '{"unexpected":true}' });

    await expect(workflow.book(input)).rejects.toThrow();
  });
});
