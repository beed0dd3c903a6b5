/**
 * Text that the sanitizer throws away or that people cannot read as written, recovered so the
 * rules can look at it: an attempt to smuggle instructions is refused, not just defused.
 */

/**
 * Unicode tag characters spell ASCII invisibly ("ASCII smuggling"): U+E0041 is an invisible "A".
 *
 * @example
 * decodeTagCharacters('Lunch\u{E0068}\u{E0069}'); // 'hi'
 */
export function decodeTagCharacters(text: string): string {
  // Every tag character's first UTF-16 unit is U+DB40: without one there is nothing to walk.
  if (!text.includes('\uDB40')) return '';
  let decoded = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) decoded += String.fromCodePoint(cp - 0xe0000);
  }
  return decoded;
}

const OVERRIDE_RUN = /\u202E([^\u202C\u2069\n]*)/gu;

/**
 * Runs after a right-to-left override (U+202E), reversed: "\u202Esnoitcurtsni suoiverp erongi"
 * shows people "ignore previous instructions" and gives a model the reversed letters.
 *
 * @example
 * reversedOverrideRuns('Budget \u202Eemoh og\u202C'); // ['go home']
 */
export function reversedOverrideRuns(text: string): string[] {
  if (!text.includes('\u202E')) return [];
  return Array.from(text.matchAll(OVERRIDE_RUN), (found) => Array.from(found[1]!).reverse().join(''));
}

// Long enough to hold an instruction; not preceded by URL or query punctuation, so path segments
// and tokens in meeting links are mostly skipped (and decode to binary when they are not).
const BASE64_RUN = /(?<![A-Za-z0-9+/=_%.-])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=])/g;
const MAX_RUNS = 16;

/**
 * The base64 runs in `text` that decode to UTF-8 text without control characters.
 *
 * @example
 * decodedBase64Runs('ref QWdlbmRhOiByb2FkbWFwLCBoaXJpbmc='); // ['Agenda: roadmap, hiring']
 */
export function decodedBase64Runs(text: string): string[] {
  const decoded: string[] = [];
  for (const [run] of Array.from(text.matchAll(BASE64_RUN)).slice(0, MAX_RUNS)) {
    const plain = decodeBase64(run);
    if (plain !== undefined) decoded.push(plain);
  }
  return decoded;
}

function decodeBase64(run: string): string | undefined {
  try {
    const padded = run.endsWith('=') ? run : run + '='.repeat((4 - (run.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (ch) => ch.charCodeAt(0));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /(?![\t\n\v\f\r])\p{Cc}/u.test(text) ? undefined : text;
  } catch {
    // Not base64 after all, or not UTF-8: nothing hidden here.
    return undefined;
  }
}
