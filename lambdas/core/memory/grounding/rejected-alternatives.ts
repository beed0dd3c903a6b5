import { contentTerms, isNegated } from './claim-terms.js';
import type { Claim } from './claims.js';

/**
 * What a sentence of memory says was NOT chosen: "Stripe chosen, Adyen rejected", "PostgreSQL 16,
 * chosen over MongoDB", "HttpOnly cookies, not JWTs in localStorage", "instead of Redis". A claim
 * that affirms such an alternative ("Adyen is our payment processor") shares nearly every word
 * with the decision, so word overlap alone scored it ACCEPT (issue 22 S2).
 */
export interface RejectedAlternative {
  /** The alternative as memory writes it ("Adyen", "JWTs in localStorage"). */
  text: string;
  /** Its content terms, stemmed as claims' terms are. */
  terms: string[];
  /** `rejected_alternative` for a choice made against it, `negation` for "not X" / "instead of X". */
  kind: 'rejected_alternative' | 'negation';
}

// Parts of a sentence that each state one thing: "Stripe chosen, Adyen rejected because …".
const PART_BREAK = /[,;:()—–]|\.\s/;
// The alternative ends where a reason or another statement starts.
const PHRASE_END = /\s+(?:because|for|due|since|as|which|when|so|after|given|and|but|with)\b.*$/i;
const MAX_PHRASE_WORDS = 4;
// Verdicts that set something aside whether or not a "was" comes first ("Adyen rejected").
const SET_ASIDE = 'rejected|ruled out|dropped|abandoned|phased out|turned down|retired';
// Verdicts that set aside only in the passive: "X replaced Y" sets Y aside, "X was replaced" X.
const SET_ASIDE_PASSIVE = 'replaced|cancell?ed|deprecated|discontinued';
// "Adyen rejected", "MongoDB was ruled out", "React Native was evaluated and ruled out", "Redux was
// replaced", "OpenVPN is no longer supported": the words before the verdict.
const BEFORE_VERDICT = new RegExp(
  '^(?:and\\s+|but\\s+)?(.+?)\\s+(?:' +
    `(?:(?:was|were|is|are|got|been|has been|have been)\\s+)?(?:(?:considered|evaluated|tried|trialled|reviewed)\\s+(?:and|but)\\s+)?(?:${SET_ASIDE})` +
    `|(?:was|were|got|has been|have been)\\s+(?:${SET_ASIDE_PASSIVE})` +
    '|(?:is|are)\\s+no longer\\s+(?:supported|used|in use))\\b',
  'i',
);
// "rejected Adyen", "chosen over MongoDB", "chose PostgreSQL 16 over MongoDB", "decided on X over Y",
// "moved off Jenkins", "decided against Kafka": the words after a verdict against them. A choice
// names at most a few words before "over", so "over" in another sense ("over the limit") far from
// a choice verb is not read as one. Not after "was": "Redux was replaced last quarter" names Redux.
const AFTER_VERDICT = new RegExp(
  '\\b(?:' +
    `(?<!\\b(?:was|were|is|are|been)\\s)(?:${SET_ASIDE}|replaced)|decided against|moved (?:off|away from)|migrated (?:off|away from)|stopped using|no longer use|did not renew|` +
    '(?:chosen|chose|picked|preferred|selected|favou?red|decided on|settled on|opted for|went with)(?:\\s+[^\\s,;]+){0,4}?\\s+over' +
    ')\\s+(?:the\\s+)?(.+)$',
  'i',
);
// "We considered Rollbar but it lacked …", "tried Freshdesk for a month and abandoned it": a trial
// that ended against it.
const TRIED_AND_LEFT =
  /\b(?:considered|evaluated|tried|trialled)\s+(?:the\s+)?(.+?)\s+(?:(?:for|during|in)\s+[^,;]*?\s+)?(?:and|but)\s+(?:it\s+|they\s+|we\s+)?(?:abandoned|dropped|rejected|ruled|lacked|was too|were too|failed|lost|did not|didn't|gave up)\b/i;
// "not JWTs in localStorage" as a part of its own, "instead of Redis", "rather than Redis".
const CONTRAST = /(?:^(?:but\s+)?not\s+|\b(?:instead of|rather than)\s+)(?:the\s+)?(.+)$/i;

function phrase(text: string): string {
  const words = ` ${text}`.replace(PHRASE_END, '').trim().split(/\s+/).slice(0, MAX_PHRASE_WORDS);
  return words.join(' ').replace(/[.!?]+$/, '');
}

/**
 * The alternatives `sentence` says were not chosen.
 *
 * @example
 * rejectedAlternatives('Payment processor: Stripe chosen, Adyen rejected.'); // [{ text: 'Adyen', terms: ['adyen'], kind: 'rejected_alternative' }]
 */
export function rejectedAlternatives(sentence: string): RejectedAlternative[] {
  const found: RejectedAlternative[] = [];
  for (const part of sentence.split(PART_BREAK).map((p) => p.trim())) {
    // "Adyen rejected because …" has a verdict after it too: the words before then name it.
    const readings = [
      [AFTER_VERDICT, 'rejected_alternative'],
      [TRIED_AND_LEFT, 'rejected_alternative'],
      [BEFORE_VERDICT, 'rejected_alternative'],
      [CONTRAST, 'negation'],
    ] as const;
    for (const [pattern, kind] of readings) {
      const text = phrase(pattern.exec(part)?.[1] ?? '');
      const terms = [...new Set(contentTerms(text))];
      if (terms.length === 0) continue;
      found.push({ text, terms, kind });
      break;
    }
  }
  return found;
}

/**
 * The alternative of `sentence` the claim affirms: every one of its terms is in the claim, the
 * claim is not negated, and the claim does not itself set that alternative aside ("PostgreSQL was
 * chosen over MongoDB" names MongoDB without affirming it).
 */
export function affirmedAlternative(claim: Claim, sentence: string): RejectedAlternative | undefined {
  if (claim.negated) return undefined;
  // Every word of the claim, anchors included: "MongoDB" and "localStorage" are identifiers there.
  const claimTerms = new Set(contentTerms(claim.text));
  const setAside = new Set(rejectedAlternatives(claim.text).flatMap((a) => a.terms));
  return rejectedAlternatives(sentence).find(
    (alternative) =>
      alternative.terms.every((t) => claimTerms.has(t)) && !alternative.terms.some((t) => setAside.has(t)),
  );
}

/**
 * What the claim sets aside that `sentence` affirms: every term of the claim's alternative is in
 * the sentence, which neither negates nor sets it aside itself ("PostgreSQL was chosen over
 * MongoDB" is no answer to "MongoDB was rejected").
 *
 * @example
 * setAsideChoice(toClaim('Snowflake was rejected as the warehouse.')!, 'The warehouse is Snowflake.')?.text; // 'Snowflake'
 */
export function setAsideChoice(claim: Claim, sentence: string): RejectedAlternative | undefined {
  if (claim.negated || isNegated(sentence)) return undefined;
  const sentenceTerms = new Set(contentTerms(sentence));
  const alsoAside = new Set(rejectedAlternatives(sentence).flatMap((a) => a.terms));
  return rejectedAlternatives(claim.text).find(
    (alternative) =>
      alternative.kind === 'rejected_alternative' &&
      alternative.terms.every((t) => sentenceTerms.has(t)) &&
      !alternative.terms.some((t) => alsoAside.has(t)),
  );
}
