import type { Rate } from './rate.js';

/** A bucket as stored: tokens left when it was last written, and when (epoch ms). */
export interface BucketState {
  tokens: number;
  at: number;
}

/**
 * The bucket at `now`: refilled continuously at `capacity / periodSeconds` a second, never past
 * `capacity`. A bucket never written is full. A clock that went back refills nothing.
 */
export function refill(state: BucketState | undefined, rate: Rate, now: number): BucketState {
  if (!state) return { tokens: rate.capacity, at: now };
  const elapsed = Math.max(0, now - state.at) / 1000;
  const tokens = Math.min(rate.capacity, state.tokens + (elapsed * rate.capacity) / rate.periodSeconds);
  return { tokens, at: Math.max(now, state.at) };
}

/**
 * Whole seconds until `cost` tokens are in the bucket (at least 1, since a caller told "0" would
 * retry at once). A cost above capacity can never be paid: it answers the full period.
 */
export function secondsUntil(state: BucketState, rate: Rate, cost: number): number {
  const missing = Math.min(cost, rate.capacity) - state.tokens;
  return Math.max(1, Math.ceil((missing * rate.periodSeconds) / rate.capacity));
}
