/**
 * Errors the fake Google Calendar answers with, in Google's JSON error shape
 * (`{ error: { code, message, errors: [{ domain, reason, message }], status } }`).
 */
export class FakeGoogleHttpError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly domain = 'global',
  ) {
    super(message);
  }

  /** The response body Google sends for this error. */
  body(): unknown {
    return {
      error: {
        code: this.status,
        message: this.message,
        errors: [{ domain: this.domain, reason: this.reason, message: this.message }],
        status: STATUS_NAMES[this.status] ?? 'UNKNOWN',
      },
    };
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  410: 'GONE',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export const notFound = () => new FakeGoogleHttpError(404, 'notFound', 'Not Found');
export const badRequest = (message: string, reason = 'invalid') =>
  new FakeGoogleHttpError(400, reason, message);

/** Faults a test can queue: each answers one calendar API request instead of the real handler. */
export const FAULTS = {
  rateLimit: () => new FakeGoogleHttpError(403, 'rateLimitExceeded', 'Rate Limit Exceeded', 'usageLimits'),
  userRateLimit: () =>
    new FakeGoogleHttpError(403, 'userRateLimitExceeded', 'User Rate Limit Exceeded', 'usageLimits'),
  tooManyRequests: () =>
    new FakeGoogleHttpError(429, 'rateLimitExceeded', 'Too Many Requests', 'usageLimits'),
  forbidden: () =>
    new FakeGoogleHttpError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.'),
  serverError: () => new FakeGoogleHttpError(500, 'backendError', 'Backend Error'),
  unavailable: () => new FakeGoogleHttpError(503, 'backendError', 'The service is currently unavailable.'),
  unauthorized: () => unauthorized(),
} as const;
export type FaultKind = keyof typeof FAULTS;

export function unauthorized(): FakeGoogleHttpError {
  return new FakeGoogleHttpError(
    401,
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  );
}
