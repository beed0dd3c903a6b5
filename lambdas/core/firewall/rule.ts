import type { MatchViews } from './match-views.js';
import { mayMatch, registerPatterns } from './pattern-gate.js';

/**
 * One firewall rule. Rules are hand-written: no maintained JS library detects prompt injection in
 * short calendar text, and the ML classifiers that do need a model at runtime. Each rule is a
 * tripwire for one way of instructing an agent, tuned against the ordinary-text corpus in
 * test/core/firewall so that meeting text which merely mentions "system" or "instructions" passes.
 */
export interface FirewallRule {
  readonly id: string;
  /** What the rule looks for, for docs/content-firewall.md. */
  readonly description: string;
  /** Completes "The description …", e.g. "reads like instructions to an AI agent". */
  readonly finding: string;
  /** What the caller should change, e.g. "rephrase it as plain meeting information." */
  readonly advice: string;
  /** The matched excerpt when the rule fires. */
  readonly match: (views: MatchViews) => string | undefined;
}

export type ViewName = keyof MatchViews;

/** A regular expression (without the g flag, so matching keeps no state) on one view. */
export interface Pattern {
  readonly view: ViewName;
  readonly re: RegExp;
}

/**
 * A matcher that fires on the first pattern that matches. The patterns are skipped when the
 * joined scan of their views (pattern-gate.ts) proves none can match.
 */
export function anyPattern(patterns: readonly Pattern[]): FirewallRule['match'] {
  const gates = registerPatterns(patterns);
  return (views) => {
    if (gates && !mayMatch(views, gates)) return undefined;
    for (const { view, re } of patterns) {
      const found = re.exec(views[view]);
      if (found) return found[0];
    }
    return undefined;
  };
}

/**
 * Builds a Unicode regular expression from a template, so that shared fragments (lists of verbs or
 * nouns) are written once.
 *
 * @example
 * rx`\bignore ${oneOf('previous', 'prior')} instructions\b`; // /\bignore (?:previous|prior) instructions\b/u
 */
export function rx(strings: TemplateStringsArray, ...parts: string[]): RegExp {
  return new RegExp(String.raw({ raw: strings.raw }, ...parts), 'u');
}

/** Same as {@link rx} with the m flag: ^ and $ match at line breaks. */
export function rxLines(strings: TemplateStringsArray, ...parts: string[]): RegExp {
  return new RegExp(String.raw({ raw: strings.raw }, ...parts), 'mu');
}

/** `(?:a|b|c)` from a list. */
export function oneOf(...alternatives: string[]): string {
  return `(?:${alternatives.join('|')})`;
}

/**
 * Not preceded, within a few words, by a negation: "never share your password" is advice, not a
 * request. Apostrophes are gone in the prose view, hence "dont".
 */
export const NOT_NEGATED = String.raw`(?<!\b(?:not|never|dont|cannot|cant|wont|shouldnt|mustnt|no one should|nobody should)\s(?:\w+\s){0,2})`;

/**
 * Not a request being reported: "the attacker asks staff to send their passwords", "we will never
 * ask you to send your password".
 */
export const NOT_REPORTED = String.raw`(?<!\b(?:ask|asks|asking|asked|request|requests|requesting|requested|tell|tells|telling|told|trick|tricks|tricking|persuade|persuades|urge|urges)\s(?:\w+\s){0,3}to\s)`;

/** Where an imperative starts: line or sentence start, or after "please", "then", "and", … */
export const IMPERATIVE_START = String.raw`(?:^|[.!?:;\n(\[]\s*|\b(?:please|now|then|and|also|first|must|should|kindly|immediately)\s+)`;
