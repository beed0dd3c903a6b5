import { DomainError } from '../errors.js';

/**
 * One token bucket's size and speed: up to `capacity` requests at once, refilled at `capacity`
 * per `periodSeconds` (so "120/60s" allows a burst of 120, then two a second).
 */
export interface Rate {
  capacity: number;
  periodSeconds: number;
}

/** A budget as configured: a rate, or `off` (no limit). */
export type RateSetting = Rate | 'off';

/** The two budgets every caller has: all requests, and the expensive tools' calls. */
export const LIMIT_NAMES = ['requests', 'expensive'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export type RateLimits = Record<LimitName, RateSetting>;

/** A caller's own settings (a key's, later an OAuth client's); absent names take the defaults. */
export type RateOverrides = Partial<Record<LimitName, RateSetting>>;

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600 };
const RATE = /^(\d+)\s*\/\s*(\d*)\s*(s|sec|m|min|h)$/;

/**
 * Reads `120/60s`, `120/min`, `10/h` or `off`; `where` names the setting in the message.
 *
 * @example
 * parseRate('120/min', 'MERIDIAN_RATE_LIMIT'); // { capacity: 120, periodSeconds: 60 }
 */
export function parseRate(text: string, where: string): RateSetting {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off') return 'off';
  const match = RATE.exec(trimmed);
  const capacity = Number(match?.[1]);
  const periodSeconds = Number(match?.[2] || '1') * (UNIT_SECONDS[match?.[3] ?? ''] ?? Number.NaN);
  if (!match || capacity < 1 || capacity > 1_000_000 || !(periodSeconds >= 1 && periodSeconds <= 86_400)) {
    throw new DomainError(
      'INVALID_VALUE',
      `${where}: "${text}" is not a rate. Write COUNT/PERIOD with a count from 1 to 1,000,000 and a period from 1 s to 24 h (e.g. "120/min", "600/60s", "10/h"), or "off".`,
      { field: where, expected: 'COUNT/PERIOD or off', example: '120/min' },
    );
  }
  return { capacity, periodSeconds };
}

/** The inverse of {@link parseRate}: `120/60s` or `off`. */
export function formatRate(setting: RateSetting): string {
  return setting === 'off' ? 'off' : `${setting.capacity}/${setting.periodSeconds}s`;
}

/**
 * Reads a caller's overrides, `requests=60/min,expensive=5/min` (either name may be left out).
 *
 * @example
 * parseRateOverrides('expensive=off', 'keys limits'); // { expensive: 'off' }
 */
export function parseRateOverrides(text: string, where: string): RateOverrides {
  const overrides: RateOverrides = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value] = part.split('=', 2).map((p) => p.trim());
    if (!LIMIT_NAMES.includes(name as LimitName) || value === undefined) {
      throw new DomainError(
        'INVALID_VALUE',
        `${where}: "${part}" is not NAME=RATE with NAME one of ${LIMIT_NAMES.join(', ')} (e.g. "requests=60/min,expensive=5/min").`,
        { field: where, expected: 'requests=RATE,expensive=RATE' },
      );
    }
    overrides[name as LimitName] = parseRate(value, `${where} ${name}`);
  }
  return overrides;
}
