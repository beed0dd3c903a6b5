import { LOCK_TTL_SECS_ENV } from './environment-names.js';

/** The default hold lifetime (LOCK_TTL_SECS). */
export const DEFAULT_LOCK_TTL_SECONDS = 30;

/** Bounds of LOCK_TTL_SECS: a hold must outlive verify + write, and an Express execution lasts ≤ 5 min. */
export const LOCK_TTL_RANGE = { min: 5, max: 300 } as const;

/**
 * The hold lifetime from `LOCK_TTL_SECS` (whole seconds), 30 when unset. Throws at start-up, naming
 * the variable, when it is not a whole number in [5, 300].
 *
 * @example
 * lockTtlSecondsFrom({ LOCK_TTL_SECS: '45' }); // 45
 */
export function lockTtlSecondsFrom(env: NodeJS.ProcessEnv): number {
  const raw = env[LOCK_TTL_SECS_ENV]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_LOCK_TTL_SECONDS;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < LOCK_TTL_RANGE.min || seconds > LOCK_TTL_RANGE.max) {
    throw new Error(
      `${LOCK_TTL_SECS_ENV} must be a whole number of seconds from ${LOCK_TTL_RANGE.min} to ${LOCK_TTL_RANGE.max} (got "${raw}").`,
    );
  }
  return seconds;
}
