import { type AnchorKind, anchorFound, comparableKinds, extractAnchors, unitsAgree } from './anchors.js';
import { contentTerms, opposedWords } from './claim-terms.js';
import type { Claim } from './claims.js';
import type { Clause, Passage } from './evidence-passages.js';
import { affirmedAlternative, setAsideChoice } from './rejected-alternatives.js';

/**
 * How far one passage of memory backs one claim. Support mixes how many of the claim's content
 * words the passage (with its neighbours) repeats and how many of its exact anchors it repeats:
 * anchors weigh more, because a paraphrase keeps them and a hallucination gets them wrong.
 */

/** A passage repeating this share of a claim's own words talks about the same thing. */
export const MATCHING_CONTEXT = 0.6;
/** The weight of anchors in the support of a claim that has both anchors and words. */
const ANCHOR_WEIGHT = 0.6;
/** Below this share of the claim's words, the passage's anchors count proportionally less. */
const ANCHOR_CONTEXT = 0.5;

export type ContradictionKind = AnchorKind | 'negation' | 'opposite' | 'rejected_alternative';

export interface Contradiction {
  kind: ContradictionKind;
  /** What the claim says (the anchor, or the claim's polarity). */
  claimed: string;
  /** What memory says instead. */
  found: string;
  passage: Passage;
  /**
   * For a contradiction about an alternative: the terms a passage must name to confirm the claim
   * despite it. "Sent through Postmark" shares the words of "sent via Mailchimp" but not its name.
   */
  names?: string[];
}

export interface PassageJudgement {
  passage: Passage;
  support: number;
  /** Share of the claim's words in the passage sentence itself (not its neighbours). */
  context: number;
  allAnchorsFound: boolean;
  contradiction?: Contradiction;
}

function share(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

/** Judges one passage against one claim. */
export function judgePassage(claim: Claim, passage: Passage): PassageJudgement {
  const covered = claim.terms.filter((t) => passage.contextTerms.has(t)).length;
  const context =
    claim.terms.length === 0
      ? 0
      : claim.terms.filter((t) => passage.terms.has(t)).length / claim.terms.length;
  const missing = claim.anchors.filter((a) => !anchorFound(a, passage.anchors, passage.text));
  const foundAround = claim.anchors.filter((a) =>
    anchorFound(a, passage.contextAnchors, passage.contextText),
  );
  const anchorShare = share(foundAround.length, claim.anchors.length);
  const wordShare = share(covered, claim.terms.length);
  const support =
    claim.anchors.length === 0
      ? wordShare
      : claim.terms.length === 0
        ? anchorShare
        : // An anchor found in a passage about something else ("15 minutes" of another thing) counts less.
          (1 - ANCHOR_WEIGHT) * wordShare +
          ANCHOR_WEIGHT * anchorShare * Math.min(1, wordShare / ANCHOR_CONTEXT);
  const judgement: PassageJudgement = { passage, support, context, allAnchorsFound: missing.length === 0 };
  // A decision often names what it set aside in the sentence after the choice ("… through
  // Postmark. Mailchimp was rejected."): the alternative is judged with the neighbours' words too.
  if (context < MATCHING_CONTEXT) {
    const aside = wordShare >= MATCHING_CONTEXT ? alternativeMismatch(claim, passage) : undefined;
    return aside ? { ...judgement, contradiction: aside } : judgement;
  }
  const contradiction =
    anchorMismatch(claim, missing, passage) ??
    polarityMismatch(claim, passage) ??
    alternativeMismatch(claim, passage) ??
    choiceSetAside(claim, passage);
  return contradiction ? { ...judgement, contradiction } : judgement;
}

/**
 * A claimed anchor the passage replaces with another of the same kind: "300 s" where memory says
 * "60 s". The replacement is looked for first in the clause the claim talks about, so "the Lambda
 * timeout is 10 min" against "the gateway timeout is 29 s and the Lambda timeout is 15 min" names 15.
 */
function anchorMismatch(
  claim: Claim,
  missing: Claim['anchors'],
  passage: Passage,
): Contradiction | undefined {
  if (missing.length === 0) return undefined;
  const candidates = [...extractAnchors(closestClause(claim, passage).text), ...passage.anchors];
  for (const anchor of missing) {
    const kinds = comparableKinds(anchor.kind);
    const instead = candidates.find(
      (other) =>
        kinds.includes(other.kind) &&
        unitsAgree(anchor, other) &&
        !anchorFound(other, claim.anchors, claim.text),
    );
    if (instead) return { kind: anchor.kind, claimed: anchor.value, found: instead.value, passage };
  }
  return undefined;
}

/** The clause of the passage that shares most of the claim's words (the first of equals). */
function closestClause(claim: Claim, passage: Passage): Clause {
  const overlap = (clause: Clause) => claim.terms.filter((t) => clause.terms.has(t)).length;
  return passage.clauses.reduce((best, c) => (overlap(c) > overlap(best) ? c : best));
}

/** Polarity compares the claim with the clause of the passage that shares most of its words. */
function polarityMismatch(claim: Claim, passage: Passage): Contradiction | undefined {
  const clause = closestClause(claim, passage);
  if (claim.negated !== clause.negated) {
    return {
      kind: 'negation',
      claimed: claim.negated ? 'not' : 'is',
      found: clause.negated ? 'not' : 'is',
      passage,
    };
  }
  const [word] = opposedWords(claim.text, clause.text);
  return word ? { kind: 'opposite', claimed: word, found: passage.text, passage } : undefined;
}

/** A claim affirming what memory set aside: "Adyen is our processor" against "Stripe chosen, Adyen rejected". */
function alternativeMismatch(claim: Claim, passage: Passage): Contradiction | undefined {
  const alternative = affirmedAlternative(claim, passage.text);
  return alternative
    ? {
        kind: alternative.kind,
        claimed: alternative.text,
        found: passage.text,
        passage,
        names: alternative.terms,
      }
    : undefined;
}

/** A claim setting aside what memory chose: "Snowflake was rejected" against "The warehouse is Snowflake". */
function choiceSetAside(claim: Claim, passage: Passage): Contradiction | undefined {
  const chosen = setAsideChoice(claim, passage.text);
  return chosen
    ? { kind: 'rejected_alternative', claimed: `${chosen.text} set aside`, found: passage.text, passage }
    : undefined;
}

/** Whether the passage's own sentence (not its neighbours) names every one of `terms`. */
function namesAll(passage: Passage, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const own = new Set(contentTerms(passage.text));
  return terms.every((t) => own.has(t));
}

export type ClaimVerdict = 'supported' | 'partial' | 'unsupported' | 'contradicted';

export interface ClaimJudgement {
  claim: Claim;
  /** 0 for a contradicted claim. */
  support: number;
  verdict: ClaimVerdict;
  /** The passage the verdict rests on, if any. */
  best?: Passage;
  contradiction?: Contradiction;
}

/** Support at or above this is "supported"; below PARTIAL_AT, "unsupported". */
export const SUPPORTED_AT = 0.7;
export const PARTIAL_AT = 0.3;

/**
 * Judges a claim against the passages retrieved for it. A contradiction stands unless another
 * passage confirms the claim fully (every anchor, same polarity) in matching context: memory
 * may hold an old value beside the current one, and the claim may quote either.
 */
export function judgeClaim(claim: Claim, candidates: readonly Passage[]): ClaimJudgement {
  const judged = candidates.map((p) => judgePassage(claim, p));
  const clean = judged.filter((j) => !j.contradiction).sort((a, b) => b.support - a.support);
  const contradicting = judged
    .filter((j) => j.contradiction)
    .sort((a, b) => b.context - a.context || b.support - a.support);
  const [conflict] = contradicting;
  const names = conflict?.contradiction?.names ?? [];
  const confirmed = clean.find(
    (j) => j.allAnchorsFound && j.context >= MATCHING_CONTEXT && namesAll(j.passage, names),
  );
  if (conflict && !confirmed) {
    return {
      claim,
      support: 0,
      verdict: 'contradicted',
      best: conflict.passage,
      contradiction: conflict.contradiction,
    };
  }
  const [best] = clean;
  if (!best) return { claim, support: 0, verdict: 'unsupported' };
  const support = Math.round(best.support * 100) / 100;
  const verdict = support >= SUPPORTED_AT ? 'supported' : support >= PARTIAL_AT ? 'partial' : 'unsupported';
  return { claim, support, verdict, best: best.passage };
}
