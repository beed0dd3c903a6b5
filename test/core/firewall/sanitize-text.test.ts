import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../../lambdas/core/firewall/sanitize-text.js';
import { visible } from './visible.js';

// Independent of the implementation's tables: the classes as the Unicode charts list them.
const ALWAYS_STRIPPED: readonly (readonly [number, number])[] = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x180e, 0x180e],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0xd800, 0xdfff],
  [0xe0000, 0xe007f],
];

function inRanges(ch: string, ranges: readonly (readonly [number, number])[]): boolean {
  const cp = ch.codePointAt(0)!;
  return ranges.some(([from, to]) => cp >= from && cp <= to);
}
const isAlwaysStripped = (ch: string) => inRanges(ch, ALWAYS_STRIPPED);
const isVariationSelector = (ch: string) =>
  inRanges(ch, [
    [0xfe00, 0xfe0f],
    [0xe0100, 0xe01ef],
  ]);
const isJoiner = (ch: string) => ch === '\u200C' || ch === '\u200D';

describe('sanitizeText', () => {
  describe('removes', () => {
    it.each([
      ['zero-width space', 'ig\u200Bnore', 'ignore', { 'zero-width': 1 }],
      ['zero-width non-joiner between Latin letters', 'ig\u200Cnore', 'ignore', { 'zero-width': 1 }],
      ['zero-width joiner between Latin letters', 'ig\u200Dnore', 'ignore', { 'zero-width': 1 }],
      ['word joiner', 'ig\u2060nore', 'ignore', { 'zero-width': 1 }],
      ['byte-order mark', '\uFEFFignore', 'ignore', { 'zero-width': 1 }],
      ['Mongolian vowel separator', 'ig\u180Enore', 'ignore', { 'zero-width': 1 }],
      ['left-to-right and right-to-left marks', '\u200Eab\u200F', 'ab', { bidi: 2 }],
      ['Arabic letter mark', 'a\u061Cb', 'ab', { bidi: 1 }],
      ['embeddings and overrides', '\u202Aa\u202Bb\u202Cc\u202Dd\u202Ee', 'abcde', { bidi: 5 }],
      ['isolates', '\u2066a\u2067b\u2068c\u2069', 'abc', { bidi: 4 }],
      ['tag characters', 'hi\u{E0041}\u{E0042}\u{E007F}', 'hi', { tag: 3 }],
      ['soft hyphen', 'Kick\u00ADoff', 'Kickoff', { invisible: 1 }],
      ['combining grapheme joiner', 'a\u034Fb', 'ab', { invisible: 1 }],
      ['Hangul filler', 'a\u3164b', 'ab', { invisible: 1 }],
      ['invisible math operators', 'a\u2061\u2062\u2063\u2064b', 'ab', { invisible: 4 }],
      [
        'interlinear annotation characters',
        'a\uFFF9hidden\uFFFAnote\uFFFBb',
        'ahiddennoteb',
        { invisible: 3 },
      ],
      ['C0 controls', 'a\u0000b\u0007c\u001Bd', 'abcd', { control: 3 }],
      ['DEL and C1 controls', 'a\u007Fb\u0080c\u009Fd', 'abcd', { control: 3 }],
      ['a second variation selector', 'x\uFE0F\uFE0F', 'x\uFE0F', { 'variation-selector': 1 }],
      ['a variation selector with nothing before it', '\uFE0Fx', 'x', { 'variation-selector': 1 }],
      ['a variation selector after a space', 'a \uFE0F', 'a ', { 'variation-selector': 1 }],
      [
        'a supplementary variation selector run',
        '😀\u{E0100}\u{E0101}\u{E0102}',
        '😀\u{E0100}',
        { 'variation-selector': 2 },
      ],
      ['an unpaired surrogate', 'a\uD800b\uDC00', 'ab', { 'unpaired-surrogate': 2 }],
    ])('%s', (_, input, text, removed) => {
      expect(sanitizeText(input)).toEqual({ text, removed });
    });

    it('removes a joiner next to another joiner even between Persian letters', () => {
      expect(sanitizeText('می\u200C\u200Cخواهم')).toEqual({ text: 'میخواهم', removed: { 'zero-width': 2 } });
    });
  });

  describe('keeps', () => {
    it.each([
      ['tab and newline', 'a\tb\nc'],
      ['ZWNJ between Persian letters', 'می\u200Cخواهم'],
      ['ZWNJ after a Devanagari virama', 'क्\u200Cष'],
      ['ZWJ in an emoji sequence', '👩\u200D💻'],
      ['ZWJ after a skin-tone modifier', '👨🏽\u200D🍳'],
      ['ZWJ after VS16', '❤️\u200D🔥'],
      ['a keycap sequence', '1\uFE0F\u20E3'],
      ['Arabic and Hebrew text', 'محمد الأحمد and דנה כהן'],
      ['no-break and ideographic spaces', 'a\u00A0b\u3000c'],
      ['private-use characters', 'icon \uE000'],
    ])('%s', (_, text) => {
      expect(sanitizeText(text)).toEqual({ text, removed: {} });
    });
  });

  describe('normalises', () => {
    it.each([
      ['CRLF', 'a\r\nb', 'a\nb'],
      ['a lone CR', 'a\rb', 'a\nb'],
      ['NEL', 'a\u0085b', 'a\nb'],
      ['line and paragraph separators', 'a\u2028b\u2029c', 'a\nb\nc'],
      ['decomposed accents to NFC', 'Cafe\u0301', 'Caf\u00E9'],
      ['an accent separated by a removed character to NFC', 'e\u200B\u0301', '\u00E9'],
      ['Hangul jamo to syllables', '\u1100\u1161', '\uAC00'],
    ])('%s', (_, input, text) => {
      expect(sanitizeText(input).text).toBe(text);
    });

    it('leaves compatibility characters alone (NFC, not NFKC)', () => {
      expect(sanitizeText('ｆｕｌｌ ﬁ ①').text).toBe('ｆｕｌｌ ﬁ ①');
    });
  });

  describe('properties', () => {
    // Biased towards the characters the sanitizer decides about, in every kind of neighbourhood.
    const tricky = fc.constantFrom(
      '\u200B',
      '\u200C',
      '\u200D',
      '\u2060',
      '\uFEFF',
      '\u00AD',
      '\u202E',
      '\u2067',
      '\u200F',
      '\u061C',
      '\uFE0F',
      '\uFE0E',
      '\u{E0100}',
      '\u180B',
      '\u{E0041}',
      '\u{E007F}',
      '\r',
      '\n',
      '\t',
      '\u0085',
      '\u2028',
      '\u0000',
      '\u009B',
      '\uD800',
      '\uDFFF',
      '\u0301',
      '\u094D',
      'a',
      'e',
      ' ',
      'ب',
      'ی',
      'क',
      'ष',
      '👩',
      '💻',
      '🏽',
      '❤',
      '1',
      '\u20E3',
      '\u1100',
      '\u1161',
      'ᄀ',
    );
    const strings = fc.oneof(
      fc.string({ unit: tricky, maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        maxLength: 30,
      }),
    );

    it('is idempotent', () => {
      fc.assert(
        fc.property(strings, (text) => {
          const once = sanitizeText(text).text;
          expect(visible(sanitizeText(once).text, 1000)).toBe(visible(once, 1000));
        }),
        { numRuns: 2000 },
      );
    });

    it('leaves no character of a stripped class, and joiners only between non-ASCII characters', () => {
      fc.assert(
        fc.property(strings, (text) => {
          const out = Array.from(sanitizeText(text).text);
          expect(out.filter(isAlwaysStripped).map((ch) => visible(ch))).toEqual([]);
          out.forEach((ch, i) => {
            if (!isJoiner(ch)) return;
            expect(out[i - 1]?.codePointAt(0)).toBeGreaterThan(0x7f);
            expect(out[i + 1]?.codePointAt(0)).toBeGreaterThan(0x7f);
          });
          out.forEach((ch, i) => {
            if (!isVariationSelector(ch)) return;
            const before = out[i - 1];
            expect(before).toBeDefined();
            expect(/^\s$/u.test(before!) || isVariationSelector(before!) || isJoiner(before!)).toBe(false);
          });
        }),
        { numRuns: 2000 },
      );
    });

    it('keeps printable ASCII, tab and newline exactly, and still cleans a control among them', () => {
      const plain = fc.string({
        unit: fc.oneof(
          fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          fc.constantFrom('\t', '\n'),
        ),
        maxLength: 60,
      });
      fc.assert(
        fc.property(plain, plain, (before, after) => {
          expect(sanitizeText(before + after)).toEqual({ text: before + after, removed: {} });
          expect(sanitizeText(`${before}\u007F${after}`).text).toBe(before + after);
          expect(sanitizeText(`${before}\r\n${after}`).text).toBe(`${before}\n${after}`);
        }),
        { numRuns: 500 },
      );
    });

    it('returns NFC text', () => {
      fc.assert(
        fc.property(strings, (text) => {
          const out = sanitizeText(text).text;
          expect(out.normalize('NFC')).toBe(out);
        }),
      );
    });
  });
});
