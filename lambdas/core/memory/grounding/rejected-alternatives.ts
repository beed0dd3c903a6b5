import { contentTerms } from './claim-terms.js';
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
// "Adyen rejected", "MongoDB was ruled out": the words before the verdict.
const BEFORE_VERDICT =
  /^(?:and\s+|but\s+)?(.+?)\s+(?:(?:was|were|is|are|got|been|has been)\s+)?(?:rejected|ruled out)\b/i;
// "rejected Adyen", "chosen over MongoDB", "chose PostgreSQL 16 over MongoDB", "decided on X over Y":
// the words after a verdict against them. A choice names at most a few words before "over", so
// "over" in another sense ("over the limit") far from a choice verb is not read as one.
const AFTER_VERDICT =
  /\b(?:rejected|ruled out|(?:chosen|chose|picked|preferred|selected|favou?red|decided on|settled on|opted for|went with)(?:\s+[^\s,;]+){0,4}?\s+over)\s+(?:the\s+)?(.+)$/i;
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
