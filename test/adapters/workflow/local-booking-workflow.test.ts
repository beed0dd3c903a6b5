import { describe, expect, it } from 'vitest';
import {
  assertEveryTaskHandled,
  LocalBookingWorkflow,
} from '../../../lambdas/adapters/workflow/local-booking-workflow.js';
import {
  BOOKING_TASKS,
  localFunctionArns,
  readBookingDefinition,
  substitutePlaceholders,
  taskStatesOf,
} from '../../../lambdas/booking/booking-definition.js';
import type { BookingInput } from '../../../lambdas/core/booking/booking-schemas.js';
import { BookingStepError } from '../../../lambdas/core/booking/step-errors.js';
import { DomainError } from '../../../lambdas/core/errors.js';
import type { BookingSteps } from '../../../lambdas/core/ports/index.js';

type State = Record<string, unknown> & { Type: string };
const definition = () =>
  JSON.parse(readBookingDefinition()) as { States: Record<string, State>; QueryLanguage?: string };

const input: BookingInput = {
  booking_id: 'b1',
  idempotency_key: 'k',
  request_hash: 'h',
  principal: 'local-owner',
  calendar: {
    calendar_id: 'native/c1',
    provider: 'native',
    connection_id: 'native',
    native_id: 'c1',
    name: 'C',
    label: null,
    primary: false,
    access_role: 'owner',
    created_at: '2026-01-01T00:00:00Z',
  },
  start: '2026-06-02T10:00:00+00:00',
  end: '2026-06-02T11:00:00+00:00',
  summary: 'S',
};
const booking = {
  booking_id: 'b1',
  event_id: 'e1',
  calendar_id: 'native/c1',
  summary: 'S',
  start: input.start,
  end: input.end,
  idempotent_replay: false,
};
const hold = { owner: 'b1', token: 1, start_ms: 0, end_ms: 1, expires_at_ms: 2 };

/** Steps that record which ran and with what; each may be replaced. */
function scriptedSteps(overrides: Partial<BookingSteps> = {}) {
  const calls: { step: string; input: Record<string, unknown> }[] = [];
  const record = (step: string, run: (i: Record<string, unknown>) => unknown) => async (i: unknown) => {
    calls.push({ step, input: i as Record<string, unknown> });
    return run(i as Record<string, unknown>);
  };
  const steps: BookingSteps = {
    lock: record('lock', () => ({ outcome: 'acquired', hold })),
    verify: record('verify', () => ({})),
    write: record('write', () => ({ booking })),
    release: record('release', (i) => ({ ...(i.written as { booking: object }).booking })),
    compensate: record('compensate', (i) => {
      const failure = i.failure as { Error: string; Cause: string };
      return { outcome: 'failed', error: JSON.parse(failure.Cause).code, cause: failure.Cause };
    }),
    ...overrides,
  };
  return { steps, calls };
}

describe('booking.asl.json', () => {
  it('is JSONPath (the local engine ignores JSONata) and has one Task state per step', () => {
    const parsed = definition();

    expect(parsed.QueryLanguage ?? 'JSONPath').toBe('JSONPath');
    expect(JSON.stringify(parsed)).not.toMatch(/\{%|Arguments|Output"/);
    expect(taskStatesOf(parsed).map((t) => t.name)).toEqual(BOOKING_TASKS.map((t) => t.state));
    for (const task of BOOKING_TASKS)
      expect(parsed.States[task.state]?.Resource).toBe(`\${${task.placeholder}}`);
  });

  it('retries only TransientError and Lambda service errors, and catches everything into Compensate', () => {
    const parsed = definition();

    for (const task of BOOKING_TASKS) {
      const state = parsed.States[task.state]!;
      const retry = state.Retry as { ErrorEquals: string[] }[];
      expect(retry.flatMap((r) => r.ErrorEquals).filter((e) => !e.startsWith('Lambda.'))).toEqual([
        'TransientError',
      ]);
      if (task.state === 'Compensate') expect(state.Catch).toBeUndefined();
      else
        expect(state.Catch).toEqual([
          { ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Compensate' },
        ]);
    }
  });

  it('fails with the compensation’s error and cause', () => {
    expect(definition().States.BookingFailed).toMatchObject({
      Type: 'Fail',
      ErrorPath: '$.compensation.error',
      CausePath: '$.compensation.cause',
    });
  });
});

describe('substitutePlaceholders', () => {
  it('fills every placeholder, as CloudFormation would', () => {
    const text = substitutePlaceholders(readBookingDefinition(), localFunctionArns());

    expect(text).not.toContain('${');
    expect(JSON.parse(text).States.Lock.Resource).toBe(
      'arn:aws:lambda:us-east-1:000000000000:function:meridian-local-booking-lock',
    );
  });

  it('refuses a placeholder without a value and a value without a placeholder', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation placeholders, not template literals.
    expect(() => substitutePlaceholders('${A} ${B}', { A: 'a' })).toThrow(/No value for placeholder \$\{B\}/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation placeholders, not template literals.
    expect(() => substitutePlaceholders('${A}', { A: 'a', C: 'c' })).toThrow(/no placeholder for C/);
  });
});

describe('LocalBookingWorkflow', () => {
  describe('when constructed', () => {
    it('refuses a definition with a Task state that has no local handler', () => {
      const parsed = JSON.parse(substitutePlaceholders(readBookingDefinition(), localFunctionArns()));
      parsed.States.Notify = {
        Type: 'Task',
        Resource: 'arn:aws:lambda:us-east-1:000000000000:function:notify',
        End: true,
      };

      expect(
        () => new LocalBookingWorkflow({ steps: scriptedSteps().steps, definition: JSON.stringify(parsed) }),
      ).toThrow(
        /Task state\(s\) "Notify" \(arn:aws:lambda:us-east-1:000000000000:function:notify\) have no local handler and would call AWS/,
      );
    });

    it('finds Task states nested in Parallel branches and Map processors too', () => {
      const nested = {
        StartAt: 'P',
        States: {
          P: {
            Type: 'Parallel',
            Branches: [
              { StartAt: 'Inner', States: { Inner: { Type: 'Task', Resource: 'arn:x', End: true } } },
            ],
            End: true,
          },
        },
      };

      expect(() => assertEveryTaskHandled(nested as never, {})).toThrow(/"Inner"/);
    });

    it('refuses a handler that matches no Task state', () => {
      const parsed = JSON.parse(substitutePlaceholders(readBookingDefinition(), localFunctionArns()));

      expect(() =>
        assertEveryTaskHandled(parsed, {
          ...Object.fromEntries(BOOKING_TASKS.map((t) => [t.state, () => null])),
          Notify: () => null,
        }),
      ).toThrow(/Local handler\(s\) for Notify match no Task state/);
    });
  });

  describe('book', () => {
    it('runs Lock, Verify, Write, Release in order and answers Release’s output', async () => {
      const { steps, calls } = scriptedSteps();

      const result = await new LocalBookingWorkflow({ steps, retryDelayMs: 0 }).book(input);

      expect(result).toEqual(booking);
      expect(calls.map((c) => c.step)).toEqual(['lock', 'verify', 'write', 'release']);
      expect(calls[3]!.input).toMatchObject({
        booking_id: 'b1',
        lock: { outcome: 'acquired', hold },
        written: { booking },
      });
    });

    it('goes from a replaying Lock straight to Release', async () => {
      const { steps, calls } = scriptedSteps({
        lock: async () => ({ outcome: 'replay', booking: { ...booking, idempotent_replay: true } }),
        release: async (i) => (i as { lock: { booking: object } }).lock.booking,
      });

      const result = await new LocalBookingWorkflow({ steps, retryDelayMs: 0 }).book(input);

      expect(result.idempotent_replay).toBe(true);
      // Lock and Release are replaced: no other step ran.
      expect(calls.map((c) => c.step)).toEqual([]);
    });

    it('throws the DomainError the failed step carried, after compensating with its cause', async () => {
      const slotTaken = new BookingStepError('SlotTakenError', {
        code: 'SLOT_TAKEN',
        message: 'The slot overlaps "Standup".',
        details: { conflict: { event_id: 'e0' } },
      });
      const { steps, calls } = scriptedSteps({
        verify: async () => {
          throw slotTaken;
        },
      });

      const error = await new LocalBookingWorkflow({ steps, retryDelayMs: 0 })
        .book(input)
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'SLOT_TAKEN',
        message: 'The slot overlaps "Standup".',
        details: { conflict: { event_id: 'e0' } },
      });
      // (verify is replaced, so only the recorded steps show.)
      expect(calls.map((c) => c.step)).toEqual(['lock', 'compensate']);
      expect(calls[1]!.input.failure).toEqual({ Error: 'SlotTakenError', Cause: slotTaken.message });
    });

    it('answers the booking when compensation finds it committed', async () => {
      const { steps } = scriptedSteps({
        release: async () => {
          throw new Error('network down');
        },
        compensate: async () => ({ outcome: 'booked', booking }),
      });

      await expect(new LocalBookingWorkflow({ steps, retryDelayMs: 0 }).book(input)).resolves.toEqual(
        booking,
      );
    });

    it('retries a TransientError up to the definition’s MaxAttempts, then compensates', async () => {
      let attempts = 0;
      const { steps, calls } = scriptedSteps({
        lock: async () => {
          attempts++;
          throw new BookingStepError('TransientError', {
            code: 'INTERNAL',
            message: 'throttled',
            details: {},
          });
        },
      });

      const error = await new LocalBookingWorkflow({ steps, retryDelayMs: 0 })
        .book(input)
        .catch((e: unknown) => e);

      expect(attempts).toBe(4);
      expect(calls.map((c) => c.step)).toEqual(['compensate']);
      expect(error).not.toBeInstanceOf(DomainError);
      expect((error as Error).message).toBe('The booking workflow failed: throttled');
    });

    it('reports a failing compensation as an internal error', async () => {
      const { steps } = scriptedSteps({
        verify: async () => {
          throw new Error('bug');
        },
        compensate: async () => {
          throw new Error('also down');
        },
      });

      const error = await new LocalBookingWorkflow({ steps, retryDelayMs: 0 })
        .book(input)
        .catch((e: unknown) => e);

      expect(error).not.toBeInstanceOf(DomainError);
      expect((error as Error).message).toMatch(/^The booking workflow failed: Error: also down/);
    });
  });
});
