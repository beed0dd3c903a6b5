import * as z from 'zod';

/** The shapes environment.ts parses variables with: each names its variable in what it refuses. */

/** Unset and blank are the same: a stack or shell that sets `X=` means "not set". */
export const optionalText = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

/** A whole number in [min, max], `fallback` when unset; `problem` says what fits. */
export function wholeNumber<Fallback extends number | undefined>(
  min: number,
  max: number,
  fallback: Fallback,
  problem: (got: string) => string,
) {
  return z
    .string()
    .optional()
    .transform((raw, context): number | Fallback => {
      const text = raw?.trim();
      if (!text) return fallback;
      const value = Number(text);
      if (Number.isInteger(value) && value >= min && value <= max) return value;
      context.addIssue({ code: 'custom', message: problem(text) });
      return z.NEVER;
    });
}

/** Whole minutes from 0 (off: undefined) to 1440, as milliseconds. */
export function intervalMs(name: string, defaultMinutes: number) {
  return wholeNumber(
    0,
    1440,
    defaultMinutes,
    (got) => `${name} must be a whole number of minutes from 0 (off) to 1440; got "${got}".`,
  ).transform((minutes) => (minutes === 0 ? undefined : minutes * 60_000));
}

/** One of `choices`, `fallback` when unset. */
export function oneOf<const Choice extends string>(
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
) {
  return optionalText.transform((text, context): Choice => {
    if (text === undefined) return fallback;
    if ((choices as readonly string[]).includes(text)) return text as Choice;
    context.addIssue({
      code: 'custom',
      message: `${name} must be one of ${choices.join(', ')} (got "${text}").`,
    });
    return z.NEVER;
  });
}
