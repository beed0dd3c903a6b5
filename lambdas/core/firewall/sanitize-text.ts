/**
 * Removes the characters calendar text never needs but an attacker can use: invisible characters
 * that split trigger words or smuggle hidden text, bidi controls that make people and agents read
 * different things, and control characters.
 *
 * Written by hand: no maintained JS library strips exactly this set while keeping the joiners that
 * real text needs (Persian and Indic ZWNJ, emoji ZWJ sequences).
 */

/** Why a character was removed; reported as counts per kind. */
export type StrippedKind =
  | 'zero-width'
  | 'bidi'
  | 'tag'
  | 'variation-selector'
  | 'invisible'
  | 'control'
  | 'unpaired-surrogate';

export interface SanitizedText {
  readonly text: string;
  /** How many characters of each kind were removed; empty when none were. */
  readonly removed: Readonly<Partial<Record<StrippedKind, number>>>;
}

const ZWNJ = 0x200c;
const ZWJ = 0x200d;

// Default_Ignorable_Code_Point is Unicode's own list of characters that render as nothing. The
// interlinear annotation characters are not on it but hide their annotation text, so they go too.
const DEFAULT_IGNORABLE = /[\p{Default_Ignorable_Code_Point}\uFFF9-\uFFFB]/u;
const LINE_BREAKS = new Set([0x0d, 0x85, 0x2028, 0x2029]);

type CharClass = StrippedKind | 'joiner' | 'line-break' | 'keep';

function classify(cp: number): CharClass {
  if (cp === 0x09 || cp === 0x0a) return 'keep';
  if (LINE_BREAKS.has(cp)) return 'line-break';
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'control';
  // Fast path: nothing else below the soft hyphen is stripped.
  if (cp < 0xad) return 'keep';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'unpaired-surrogate';
  if (cp === ZWNJ || cp === ZWJ) return 'joiner';
  if (cp === 0x200b || cp === 0x2060 || cp === 0xfeff || cp === 0x180e) return 'zero-width';
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f) return 'bidi';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if (isVariationSelector(cp)) return 'variation-selector';
  if (DEFAULT_IGNORABLE.test(String.fromCodePoint(cp))) return 'invisible';
  return 'keep';
}

function isVariationSelector(cp: number): boolean {
  return (
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    (cp >= 0x180b && cp <= 0x180d) ||
    cp === 0x180f
  );
}

/**
 * Scripts whose spelling uses ZWNJ/ZWJ between letters (Persian "می‌خواهم", Hindi half-forms).
 * A joiner between two letters of one of these scripts is text, not an attack.
 */
const JOINING_SCRIPTS = [
  /\p{Script=Arabic}/u,
  /\p{Script=Syriac}/u,
  /\p{Script=Nko}/u,
  /\p{Script=Mongolian}/u,
  /\p{Script=Devanagari}/u,
  /\p{Script=Bengali}/u,
  /\p{Script=Gurmukhi}/u,
  /\p{Script=Gujarati}/u,
  /\p{Script=Oriya}/u,
  /\p{Script=Tamil}/u,
  /\p{Script=Telugu}/u,
  /\p{Script=Kannada}/u,
  /\p{Script=Malayalam}/u,
  /\p{Script=Sinhala}/u,
  /\p{Script=Khmer}/u,
  /\p{Script=Myanmar}/u,
];
/** Characters sanitizeText keeps as they are, in text that is already NFC. */
const PLAIN_ASCII = /^[\t\n\x20-\x7E]*$/;
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const EMOJI_MODIFIER = /^\p{Emoji_Modifier}$/u;

function joiningScript(ch: string | undefined): number {
  if (ch === undefined || !LETTER.test(ch)) return -1;
  return JOINING_SCRIPTS.findIndex((script) => script.test(ch));
}

/** A joiner stays inside an emoji ZWJ sequence (👩‍💻) or between two letters of a joining script. */
function isNeededJoiner(chars: readonly string[], at: number): boolean {
  const next = chars[at + 1];
  if (next === undefined) return false;
  let before = at - 1;
  if (chars[at] === String.fromCodePoint(ZWJ) && PICTOGRAPHIC.test(next)) {
    while (before >= 0 && (chars[before] === '\uFE0F' || EMOJI_MODIFIER.test(chars[before]!))) before--;
    if (before >= 0 && PICTOGRAPHIC.test(chars[before]!)) return true;
    before = at - 1;
  }
  while (before >= 0 && MARK.test(chars[before]!)) before--;
  const script = joiningScript(chars[before]);
  return script >= 0 && script === joiningScript(next);
}

/** A variation selector means something only right after a visible character, and only one. */
function isBase(cp: number | undefined): boolean {
  return cp !== undefined && classify(cp) === 'keep' && !/\s/u.test(String.fromCodePoint(cp));
}

/**
 * Strips zero-width characters, bidi controls, Unicode tag characters, stray variation selectors,
 * other default-ignorable characters and C0/C1 controls (except tab and newline); turns CR, CRLF,
 * NEL and U+2028/U+2029 into "\n"; normalises to NFC.
 *
 * Kept on purpose: ZWJ inside emoji sequences and ZWNJ/ZWJ between two letters of a script that
 * needs them (Arabic, Indic, …), and one variation selector after a visible character (❤️).
 * Lost on purpose: subdivision flags (🏴 + tag characters) fall back to 🏴, and RLM/LRM marks in
 * mixed-direction text go, which can move neutral punctuation in display.
 *
 * @example
 * sanitizeText('ig\u200Bnore \u202Eme\u202C');
 * // { text: 'ignore me', removed: { 'zero-width': 1, bidi: 2 } }
 */
export function sanitizeText(text: string): SanitizedText {
  // Printable ASCII, tab and newline: every character is kept and the text is already NFC. Most
  // text is this, and the test costs a fraction of the character-by-character pass below.
  if (PLAIN_ASCII.test(text)) return { text, removed: {} };
  const removed: Partial<Record<StrippedKind, number>> = {};
  const count = (kind: StrippedKind) => {
    removed[kind] = (removed[kind] ?? 0) + 1;
  };
  const input = Array.from(text);
  const kept: string[] = [];
  const joinerAt: number[] = [];
  input.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    const kind = classify(cp);
    if (kind === 'keep') kept.push(ch);
    else if (kind === 'line-break') {
      if (!(cp === 0x0d && input[i + 1] === '\n')) kept.push('\n');
    } else if (kind === 'joiner') {
      joinerAt.push(kept.length);
      kept.push(ch);
    } else if (kind === 'variation-selector' && isBase(input[i - 1]?.codePointAt(0))) kept.push(ch);
    else count(kind);
  });
  // Joiners are judged on what survived the first pass, so that a joiner next to a removed
  // character cannot survive now and be removed by a second sanitizeText (idempotence).
  const drop = new Set(joinerAt.filter((at) => !isNeededJoiner(kept, at)));
  if (drop.size > 0) removed['zero-width'] = (removed['zero-width'] ?? 0) + drop.size;
  const out = drop.size === 0 ? kept : kept.filter((_, i) => !drop.has(i));
  return { text: out.join('').normalize('NFC'), removed };
}
