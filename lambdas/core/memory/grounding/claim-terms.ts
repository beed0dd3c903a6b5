/**
 * The words grounding compares: folded and stemmed as search does (search/text-terms.ts), so a
 * claim meets its evidence on the terms that retrieved it; stop words and conversational filler
 * dropped. The stop words differ from search's on purpose: negators are content here. Grounding asks "does the evidence say the same things?", so
 * a word only counts when it carries content.
 */
import { foldText, stem } from '../search/text-terms.js';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does done for from had has have how i if in ' +
    'into is it its me my of on or our so than that the their them then there these they this those to ' +
    'too was we were what when where which while who why will with would you your also just now us ' +
    'about after all any because both each every here more most much only other over same some such ' +
    'up very via use used uses using'
  ).split(' '),
);

/** Words of conversation rather than fact: a sentence made only of them states nothing checkable. */
const FILLER = new Set(
  (
    'sure happy help glad hope thank thanks please let know question questions great okay ok yes hi hello ' +
    'anything else feel free look forward sound sounds good idea happy like want need see right course'
  ).split(' '),
);

/** Words that turn a statement into its opposite. */
const NEGATORS = new Set(
  "not no never none nothing neither nor without cannot can't won't isn't aren't wasn't weren't doesn't don't didn't hasn't haven't hadn't shouldn't wouldn't couldn't".split(
    ' ',
  ),
);

/** Words that say the writer is unsure: they lower the response's fuzzy confidence. */
const HEDGES = new Set(
  'might maybe probably perhaps possibly likely seems seem apparently presumably guess'.split(' '),
);

/**
 * States that exclude each other (a cheap extension of negation). Only states: relative words
 * (before/after, first/last) say opposite things about different subjects too often.
 */
const OPPOSITES: readonly (readonly [string, string])[] = [
  ['enabled', 'disabled'],
  ['enable', 'disable'],
  ['added', 'removed'],
  ['synchronous', 'asynchronous'],
  ['sync', 'async'],
  ['increased', 'decreased'],
  ['allowed', 'forbidden'],
  ['public', 'private'],
  ['required', 'optional'],
  ['success', 'failure'],
  ['passed', 'failed'],
  ['true', 'false'],
  ['accepted', 'rejected'],
  ['encrypted', 'unencrypted'],
  ['ascending', 'descending'],
  ['minimum', 'maximum'],
  ['inclusive', 'exclusive'],
];

const OPPOSITE_OF = new Map(OPPOSITES.flatMap(([a, b]) => [[a, b] as const, [b, a] as const]));

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;

/** The lower-cased words of `text` with accents removed, apostrophes kept (negators are "can't"). */
export function words(text: string): string[] {
  return [...foldText(text).replace(/’/g, "'").matchAll(WORD)].map((match) => match[0]);
}

/**
 * The content terms of `text`: stemmed words that are neither stop words, filler nor negators,
 * and not bare numbers (numbers are anchors, compared exactly).
 *
 * @example
 * contentTerms('The retries are not logged'); // ['retry', 'log']
 */
export function contentTerms(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w) && !FILLER.has(w) && !NEGATORS.has(w) && !/^\d+$/.test(w))
    .map((w) => stem(w.replace(/'s$/, '')));
}

/** True when `text` says something is not so (an odd number of negators flips it back). */
export function isNegated(text: string): boolean {
  const count = words(text).filter((w) => NEGATORS.has(w) || w.endsWith("n't")).length;
  return count % 2 === 1;
}

/** True when `text` hedges ("might", "probably", "I think"). */
export function isHedged(text: string): boolean {
  return words(text).some((w) => HEDGES.has(w)) || /\bi (?:think|believe|guess)\b/i.test(text);
}

/** The words of `claim` whose opposite `evidence` says instead (e.g. enabled vs disabled). */
export function opposedWords(claim: string, evidence: string): string[] {
  const evidenceWords = new Set(words(evidence));
  const claimWords = new Set(words(claim));
  return [...claimWords].filter((w) => {
    const opposite = OPPOSITE_OF.get(w);
    return (
      opposite !== undefined &&
      evidenceWords.has(opposite) &&
      !evidenceWords.has(w) &&
      !claimWords.has(opposite)
    );
  });
}

/** True when the word carries no checkable content (stop word or filler). */
export function isFiller(word: string): boolean {
  return STOP_WORDS.has(word) || FILLER.has(word);
}
