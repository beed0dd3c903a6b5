import { describe, expect, it } from 'vitest';
import {
  describeGoogleFailure,
  isTransient,
  toDomainError,
} from '../../../lambdas/adapters/google/google-errors.js';

/** A gaxios-shaped error: only `response.status` and `response.data` matter. */
const gaxiosError = (status: number, data: unknown) =>
  Object.assign(new Error('request failed'), { config: {}, response: { status, data } });
const googleError = (status: number, reason: string, message = 'msg') =>
  gaxiosError(status, { error: { code: status, message, errors: [{ reason, message }] } });

describe('google-errors', () => {
  describe('isTransient', () => {
    it.each([
      [googleError(403, 'rateLimitExceeded'), true],
      [googleError(403, 'userRateLimitExceeded'), true],
      [googleError(429, 'rateLimitExceeded'), true],
      [googleError(500, 'backendError'), true],
      [googleError(503, 'backendError'), true],
      [Object.assign(new Error('ECONNRESET'), { config: {}, code: 'ECONNRESET' }), true],
      [googleError(403, 'quotaExceeded'), false],
      [googleError(403, 'forbidden'), false],
      [googleError(400, 'invalid'), false],
      [googleError(404, 'notFound'), false],
      [gaxiosError(500, { error: 'server_error', error_description: 'token endpoint' }), false],
    ])('classifies %# correctly', (error, expected) => {
      expect(isTransient(describeGoogleFailure(error))).toBe(expected);
    });
  });

  describe('toDomainError', () => {
    it.each([
      [googleError(404, 'notFound'), 'NOT_FOUND'],
      [googleError(410, 'deleted'), 'NOT_FOUND'],
      [googleError(412, 'conditionNotMet'), 'STALE_WRITE'],
      [googleError(400, 'invalid'), 'INVALID_INPUT'],
      [googleError(401, 'authError'), 'PROVIDER_AUTH_FAILED'],
      [
        gaxiosError(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }),
        'PROVIDER_AUTH_FAILED',
      ],
      [googleError(403, 'rateLimitExceeded'), 'PROVIDER_RATE_LIMITED'],
      [googleError(403, 'quotaExceeded'), 'PROVIDER_RATE_LIMITED'],
      [googleError(403, 'requiredAccessLevel'), 'FORBIDDEN'],
      [googleError(502, 'backendError'), 'PROVIDER_ERROR'],
      [gaxiosError(502, '<html>Bad Gateway</html>'), 'PROVIDER_ERROR'],
    ])('maps %# to the right code', (error, code) => {
      expect(toDomainError(describeGoogleFailure(error)).code).toBe(code);
    });

    it('keeps Google’s message for a 400 and the status and reason as details', () => {
      const error = toDomainError(
        describeGoogleFailure(googleError(400, 'timeRangeEmpty', 'The specified time range is empty.')),
      );

      expect(error.message).toBe('Google Calendar rejected the request: The specified time range is empty.');
      expect(error.details).toEqual({ status: 400, reason: 'timeRangeEmpty' });
      expect(error.cause).toBeUndefined();
    });
  });
});
