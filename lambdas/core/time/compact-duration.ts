import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';

/**
 * A signed compact duration such as "+1d2h30m" or "-2w3d", split into calendar units (weeks,
 * days: wall-clock arithmetic) and exact units (hours, minutes, seconds: elapsed time).
 */
export interface CompactDuration {
  sign: 1 | -1;
  weeks: number;
  days: number;
  /** hours, minutes and seconds together, in milliseconds of elapsed time. */
  exactMs: number;
  /** The canonical spelling, e.g. "+1d2h30m". */
  canonical: string;
}

// Units in descending size, each at most once: "+1d2h" but not "+2h1d" or "+1h1h".
// Written by hand: duration libraries parse ISO 8601 ("PT2H"), not this compact agent-friendly form.
const COMPACT = /^([+-])(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * Parses "+2h", "-30m", "+1d2h30m", "-2w3d", "+90s". `m` is minutes (months are not offered:
 * their length varies). Throws INVALID_DURATION explaining the format.
 *
 * @example
 * parseCompactDuration('+1d2h30m'); // { sign: 1, weeks: 0, days: 1, exactMs: 9_000_000, canonical: '+1d2h30m' }
 */
export function parseCompactDuration(text: string, field = 'adjustment'): CompactDuration {
  const compact = text.replace(/\s+/g, '').toLowerCase();
  const match = COMPACT.exec(compact);
  if (!match || compact.length < 3) {
    throw new DomainError(
      'INVALID_DURATION',
      `"${field}" must be a signed compact duration such as "+2h", "-30m", "+1d2h30m" or "-2w3d" (units w, d, h, m = minutes, s, largest first, each once); got ${echo(text)}.`,
      { field },
    );
  }
  const [, signText, w, d, h, m, s] = match;
  const count = (value: string | undefined) => (value === undefined ? 0 : Number(value));
  const exactMs = ((count(h) * 60 + count(m)) * 60 + count(s)) * 1000;
  if (!Number.isSafeInteger(exactMs) || count(w) > 100_000 || count(d) > 1_000_000) {
    throw new DomainError(
      'INVALID_DURATION',
      `"${field}" is too large: keep it within a few thousand years.`,
      {
        field,
      },
    );
  }
  return {
    sign: signText === '-' ? -1 : 1,
    weeks: count(w),
    days: count(d),
    exactMs,
    canonical: compact,
  };
}
