import type { SuggestionSession } from './suggestion-history.js';

/** Plan A (suggestions applied without asking) needs this lower bound on the acceptance rate. */
export const PLAN_A_LOWER_BOUND = 0.7;
/** z for a two-sided 95% interval. */
const Z95 = 1.959964;

/**
 * The Wilson score interval's lower bound for `successes` of `trials` at 95%: the acceptance
 * rate we can be confident of, not the one observed. 7 of 10 gives 0.40, so it is not enough
 * for Plan A; 10 of 10 gives 0.72.
 *
 * @example
 * wilsonLowerBound(7, 10); // 0.3968…
 */
export function wilsonLowerBound(successes: number, trials: number): number {
  if (trials === 0) return 0;
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const centre = p + z2 / (2 * trials);
  const margin = Z95 * Math.sqrt((p * (1 - p) + z2 / (4 * trials)) / trials);
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

export interface AutomationStatus {
  current_plan: 'A' | 'B';
  /** Observed acceptance rate; null before any feedback. */
  acceptance_rate: number | null;
  rejection_rate: number | null;
  wilson_lower_bound: number;
  feedback_count: number;
  accepted_count: number;
  rejected_count: number;
  /** Sessions still waiting for accept_suggestions or reject_suggestions. */
  pending_count: number;
  message: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Plan A (automatic) when the 95% Wilson lower bound of the acceptance rate of decided
 * suggestion sessions reaches 0.70, else Plan B (confirm each suggestion).
 */
export function automationStatus(sessions: readonly SuggestionSession[]): AutomationStatus {
  const accepted = sessions.filter((s) => s.state === 'accepted').length;
  const rejected = sessions.filter((s) => s.state === 'rejected').length;
  const feedback = accepted + rejected;
  const bound = round(wilsonLowerBound(accepted, feedback));
  const plan = bound >= PLAN_A_LOWER_BOUND ? 'A' : 'B';
  return {
    current_plan: plan,
    acceptance_rate: feedback === 0 ? null : round(accepted / feedback),
    rejection_rate: feedback === 0 ? null : round(rejected / feedback),
    wilson_lower_bound: bound,
    feedback_count: feedback,
    accepted_count: accepted,
    rejected_count: rejected,
    pending_count: sessions.length - feedback,
    message:
      plan === 'A'
        ? `Plan A (automatic): the acceptance rate is at least ${bound} with 95% confidence.`
        : feedback === 0
          ? 'Plan B (confirm each suggestion): no feedback yet; accept or reject suggestions to build it.'
          : `Plan B (confirm each suggestion): with ${accepted} of ${feedback} accepted, the rate is only known to be at least ${bound}; Plan A needs ${PLAN_A_LOWER_BOUND}.`,
  };
}
