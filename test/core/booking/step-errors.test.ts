import { describe, expect, it } from 'vitest';
import {
  BookingStepError,
  decodeFailure,
  failureToError,
  STEP_ERROR,
  toStepError,
} from '../../../lambdas/core/booking/step-errors.js';
import { DomainError } from '../../../lambdas/core/errors.js';
import { ConditionFailedError } from '../../../lambdas/core/ports/index.js';

const payload = {
  code: 'SLOT_TAKEN' as const,
  message: 'Taken: pick another slot.',
  details: { conflict: { event_id: 'e1' } },
};

describe('step errors', () => {
  describe('toStepError', () => {
    it('names domain errors by their code, for the Catch of booking.asl.json', () => {
      expect(toStepError(new DomainError('SLOT_TAKEN', 'x')).name).toBe('SlotTakenError');
      expect(toStepError(new DomainError('LOCK_CONTENDED', 'x')).name).toBe('LockContendedError');
      expect(toStepError(new DomainError('CONTENT_REJECTED', 'x')).name).toBe('ContentRejectedError');
      expect(toStepError(new DomainError('PROVIDER_RATE_LIMITED', 'x')).name).toBe('ProviderError');
      expect(toStepError(new DomainError('INVALID_INPUT', 'x')).name).toBe('InvalidBookingError');
    });

    it('carries code, message and details as the JSON message', () => {
      const error = toStepError(new DomainError('SLOT_TAKEN', payload.message, payload.details));

      expect(JSON.parse(error.message)).toEqual(payload);
    });

    it('makes throttling, 5xx, dropped connections and lost races TransientError (retried)', () => {
      const throttled = Object.assign(new Error('slow down'), {
        name: 'ProvisionedThroughputExceededException',
      });
      const serverError = Object.assign(new Error('oops'), {
        name: 'Whatever',
        $metadata: { httpStatusCode: 503 },
      });
      const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      const race = new ConditionFailedError({ pk: 'p', sk: 's' });

      for (const error of [throttled, serverError, reset, race])
        expect(toStepError(error).name).toBe(STEP_ERROR.transient);
    });

    it('makes anything else InternalError, and keeps a step error as it is', () => {
      expect(toStepError(new TypeError('x is undefined')).name).toBe(STEP_ERROR.internal);
      const own = new BookingStepError('UnconfirmedWriteError', {
        code: 'INTERNAL',
        message: 'm',
        details: {},
      });
      expect(toStepError(own)).toBe(own);
    });
  });

  describe('decodeFailure', () => {
    it('reads the local cause: the thrown message itself', () => {
      expect(decodeFailure('SlotTakenError', JSON.stringify(payload))).toEqual(payload);
    });

    it('reads the AWS cause: a Lambda error object whose errorMessage is the payload', () => {
      const cause = JSON.stringify({
        errorType: 'SlotTakenError',
        errorMessage: JSON.stringify(payload),
        trace: ['at x'],
      });

      expect(decodeFailure('SlotTakenError', cause)).toEqual(payload);
    });

    it('makes anything else an internal failure named by its error', () => {
      expect(decodeFailure('States.Timeout', 'Task timed out')).toEqual({
        code: 'INTERNAL',
        message: 'States.Timeout: Task timed out',
        details: {},
      });
      expect(decodeFailure('Lambda.ServiceException', undefined).code).toBe('INTERNAL');
    });
  });

  describe('failureToError', () => {
    it('gives the caller a DomainError for booking codes and a plain Error otherwise', () => {
      const slotTaken = failureToError(payload);
      const internal = failureToError({ code: 'INTERNAL', message: 'boom', details: {} });

      expect(slotTaken).toBeInstanceOf(DomainError);
      expect(slotTaken).toMatchObject({
        code: 'SLOT_TAKEN',
        message: payload.message,
        details: payload.details,
      });
      expect(internal).not.toBeInstanceOf(DomainError);
      expect(internal.message).toBe('The booking workflow failed: boom');
    });
  });
});
