import { type Anchor, extractAnchors, withoutAnchors } from './anchors.js';
import { contentTerms, isHedged, isNegated } from './claim-terms.js';

/** One sentence of a response, as grounding checks it. */
export interface Claim {
  text: string;
  /** Content terms of the sentence outside its anchors. */
  terms: string[];
  anchors: Anchor[];
  negated: boolean;
  hedged: boolean;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Code blocks are quoted material, not statements; sentences inside them are not claims. */
const CODE_BLOCK = /```[\s\S]*?```/g;

const IDENTIFIER_AFTER_STOP = /(?<=[\w)\]`"'][.!?])\s+(?=[a-z][\w]*(?:[A-Z_(]|\.\w))/;

/** Words a full stop follows without ending the sentence. */
const ABBREVIATIONS = new Set(
  'eg ie etc vs approx cf incl excl resp ca al fig no nr mr mrs ms dr st vol ver min max esp'.split(' '),
);

/**
 * `sentence` split where a stop ends a word that is no abbreviation and a lower-case word follows:
 * technical sentences start with commands ("… in S3. npm test runs vitest."), which the segmenter
 * reads as an abbreviation going on. Not after one letter ("5 p.m. today") or a dotted word ("e.g.").
 */
function splitAtLowerCaseStarts(sentence: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const stop of sentence.matchAll(/[.!?]\s+(?=[a-z])/g)) {
    const word = /([A-Za-z][A-Za-z.]*|\d+)$/.exec(sentence.slice(from, stop.index))?.[1] ?? '';
    const abbreviation =
      word.includes('.') || /^[A-Za-z]$/.test(word) || ABBREVIATIONS.has(word.toLowerCase());
    if (word === '' || abbreviation) continue;
    parts.push(sentence.slice(from, stop.index + 1));
    from = stop.index + stop[0].length;
  }
  parts.push(sentence.slice(from));
  return parts;
}

/** Sentences of `text` (Intl.Segmenter, also split at line breaks so list items stand alone). */
export function sentences(text: string): string[] {
  return (
    text
      .replace(CODE_BLOCK, '\n')
      .split(/\n+/)
      .flatMap((line) => [...segmenter.segment(line)].map((s) => s.segment))
      // The segmenter keeps "… 300 seconds. retryWithBackoff() …" together (a lower-case start
      // reads as an abbreviation); a sentence may well start with a code identifier.
      .flatMap((sentence) => sentence.split(IDENTIFIER_AFTER_STOP))
      .flatMap(splitAtLowerCaseStarts)
      .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
      .filter((s) => s.length > 0)
  );
}

/**
 * ", not BigQuery" after a statement names what it is not; the statement itself is affirmative
 * ("Snowflake is our warehouse, not BigQuery"). Memory's clauses are split there too.
 */
const CONTRAST_TAIL = /,\s*(?:but\s+)?not\s+[^,;]*/gi;

/** What the sentence claims, or undefined when it claims nothing checkable. */
export function toClaim(sentence: string): Claim | undefined {
  // A question asks; it claims nothing.
  if (/\?\s*$/.test(sentence)) return undefined;
  const anchors = extractAnchors(sentence);
  const terms = [...new Set(contentTerms(withoutAnchors(sentence)))];
  // One content word ("Done.") is too little to check; an anchor is always checkable.
  if (anchors.length === 0 && terms.length < 2) return undefined;
  return {
    text: sentence,
    terms,
    anchors,
    negated: isNegated(sentence.replace(CONTRAST_TAIL, '')),
    hedged: isHedged(sentence),
  };
}

/**
 * The verifiable claims of a response: one per sentence that states something checkable.
 *
 * @example
 * extractClaims('Sure! The cache TTL is 300 seconds. Anything else?').map((c) => c.text);
 * // ['The cache TTL is 300 seconds.']
 */
export function extractClaims(text: string): Claim[] {
  return sentences(text).flatMap((s) => toClaim(s) ?? []);
}
