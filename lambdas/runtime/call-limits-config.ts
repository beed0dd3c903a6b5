import { DEFAULT_MEMORY_ITEMS_CAP } from '../core/memory/store/memory-store.js';
import { type CallLimits, DEFAULT_CALL_LIMITS } from '../mcp/call-limits.js';
import { CALL_DEADLINE_SECONDS_ENV, CALL_WORK_ITEMS_ENV, MEMORY_MAX_ITEMS_ENV } from './environment-names.js';

function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}; got "${text}".`);
  return value;
}

/**
 * The call limits from `MERIDIAN_CALL_DEADLINE_SECONDS` and `MERIDIAN_CALL_WORK_ITEMS`, each
 * falling back to DEFAULT_CALL_LIMITS; a value out of range stops start-up with what fits.
 *
 * @example
 * callLimitsFrom({ MERIDIAN_CALL_DEADLINE_SECONDS: '10' }); // { deadlineMs: 10000, workItems: 50000 }
 */
export function callLimitsFrom(env: NodeJS.ProcessEnv): CallLimits {
  const seconds = wholeNumber(env, CALL_DEADLINE_SECONDS_ENV, 1, 900);
  const items = wholeNumber(env, CALL_WORK_ITEMS_ENV, 1_000, 10_000_000);
  return {
    deadlineMs: seconds === undefined ? DEFAULT_CALL_LIMITS.deadlineMs : seconds * 1000,
    workItems: items ?? DEFAULT_CALL_LIMITS.workItems,
  };
}

/**
 * The records one project's memory may hold, from `MERIDIAN_MEMORY_MAX_ITEMS` (default 20,000);
 * a value out of range stops start-up with what fits.
 *
 * @example
 * memoryItemsCapFrom({ MERIDIAN_MEMORY_MAX_ITEMS: '5000' }); // 5000
 */
export function memoryItemsCapFrom(env: NodeJS.ProcessEnv): number {
  return wholeNumber(env, MEMORY_MAX_ITEMS_ENV, 100, 10_000_000) ?? DEFAULT_MEMORY_ITEMS_CAP;
}
