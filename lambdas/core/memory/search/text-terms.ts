/**
 * The words search sees in a text, shared by the keyword index and the local embedder so both
 * agree on what a term is: lower case, accents folded, split on anything but letters and digits,
 * common English suffixes stripped (so "retries", "retrying" and "retry" meet).
 */

/** Words too common to say anything about a memory; they neither match nor embed. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to too was we ' +
    'were what when where which while who why will with you your'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The search terms of `text`, in order, stop words removed.
 *
 * @example
 * searchTerms('Retrying the S3 uploads'); // ['retry', 's3', 'upload']
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const term = normaliseTerm(match[0]);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/** One already-split word as a search term, or undefined for a stop word. */
export function normaliseTerm(word: string): string | undefined {
  const lower = foldText(word);
  if (STOP_WORDS.has(lower)) return undefined;
  return stem(lower);
}

/** Lower case with accents removed, so "Café" and "cafe" are one word. */
export function foldText(text: string): string {
  // Most memory is ASCII: skipping normalisation there halves indexing time.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const NON_ASCII = /[^\p{ASCII}]/u;

// Longest first; each needs a stem of at least three letters left, so "ring" or "bus" stay whole.
const SUFFIXES: readonly [string, string][] = [
  ['ations', ''],
  ['ation', ''],
  ['ions', ''],
  ['ion', ''],
  ['ments', ''],
  ['ment', ''],
  ['ings', ''],
  ['ing', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['ers', ''],
  ['er', ''],
  ['ed', ''],
  ['es', ''],
  ['ly', ''],
  ['s', ''],
];

/**
 * A deliberately small suffix stripper (not Porter): predictable, and identical for query and
 * memory, which is all matching needs. Grounding stems with it too, so a claim and its evidence
 * meet on the same terms that retrieved the evidence.
 *
 * @example
 * stem('retries'); // 'retry'
 */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  let base = word;
  for (const [suffix, replacement] of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      base = word.slice(0, word.length - suffix.length) + replacement;
      break;
    }
  }
  // "stopped" → "stopp" → "stop": undouble a final consonant left by -ed/-ing.
  if (/([b-df-hj-np-tv-z])\1$/.test(base) && !/(ss|ll|zz)$/.test(base)) base = base.slice(0, -1);
  // "cache", "cached" and "caches" all end as "cach"; "migrate" and "migration" as "migrat".
  if (base.length > 3 && base.endsWith('e')) base = base.slice(0, -1);
  if (base.length > 5 && base.endsWith('at')) base = base.slice(0, -2);
  return base;
}
