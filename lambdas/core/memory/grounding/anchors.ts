import { escapeRegExp } from '../../escape-regexp.js';
import { stem } from '../search/text-terms.js';
import { isFiller } from './claim-terms.js';

/**
 * Exact anchors of a sentence: the parts a paraphrase keeps word for word and a hallucination
 * gets wrong — numbers, versions, paths, identifiers, dates, quoted text, URLs. Two sentences
 * about the same thing with different anchors of one kind contradict each other.
 */

export type AnchorKind = 'url' | 'quoted' | 'date' | 'time' | 'path' | 'version' | 'identifier' | 'number';

export interface Anchor {
  kind: AnchorKind;
  /** Normalised for comparison (lower case, no trailing punctuation, `v` dropped from versions). */
  value: string;
  /**
   * For a number, the word it counts (stemmed): "30 days" → `day`, "port 8080" → `port`. Two
   * numbers only compare when their units agree (or one has none): "5 jobs" is not "5 times".
   */
  unit?: string;
  /**
   * For an amount — a duration, a size, a percentage, a price — its value in the base unit
   * (seconds, bytes, percent, the currency): "15 min" and "15 minutes", "1 day" and "24 hours",
   * "5 MB" and "5 megabytes" are the same amount, whatever the unit's spelling.
   */
  measure?: number;
}

type Dimension = 'duration' | 'size' | 'percent' | 'usd' | 'eur' | 'gbp';

/** The unit words of amounts, each with its dimension and its size in the dimension's base unit. */
const MEASURES: ReadonlyMap<string, { dimension: Dimension; factor: number }> = new Map(
  (
    [
      ['duration', 0.001, 'ms msec msecs millisecond milliseconds'],
      ['duration', 1, 's sec secs second seconds'],
      ['duration', 60, 'min mins minute minutes'],
      ['duration', 3_600, 'h hr hrs hour hours'],
      ['duration', 86_400, 'd day days'],
      ['duration', 604_800, 'wk wks week weeks'],
      ['size', 1, 'byte bytes'],
      // Decimal and binary prefixes alike: "5 MB" is written for both, and must not contradict "5 MiB".
      ['size', 1_024, 'kb kib kilobyte kilobytes kibibyte kibibytes'],
      ['size', 1_024 ** 2, 'mb mib megabyte megabytes mebibyte mebibytes'],
      ['size', 1_024 ** 3, 'gb gib gigabyte gigabytes gibibyte gibibytes'],
      ['size', 1_024 ** 4, 'tb tib terabyte terabytes tebibyte tebibytes'],
      ['percent', 1, '% percent pct'],
      ['usd', 1, 'usd dollar dollars'],
      ['eur', 1, 'eur euro euros'],
      ['gbp', 1, 'gbp'],
    ] as const
  ).flatMap(([dimension, factor, words]) =>
    words.split(' ').map((word) => [word, { dimension, factor }] as const),
  ),
);

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const FILE_EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|json|py|md|yml|yaml|toml|go|rs|java|kt|sql|sh|css|scss|html|txt|env|lock|cfg|ini|xml|proto|tf|rb|php|c|h|cpp';

/** Tried in this order; what one kind matched is masked before the next looks. */
const PATTERNS: readonly (readonly [AnchorKind, RegExp])[] = [
  ['url', /\bhttps?:\/\/[^\s)>\]"'`]+/gi],
  ['quoted', /"([^"\n]{1,120})"|“([^”\n]{1,120})”|`([^`\n]{1,120})`/g],
  [
    'date',
    new RegExp(
      `\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?Z?)?\\b|\\b(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?\\b`,
      'gi',
    ),
  ],
  // A time of day, "02:30", "2:30 pm" or "14:30:00", before its digits read as two numbers.
  ['time', /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\b\.?)?(?![\d:])/gi],
  [
    'path',
    new RegExp(
      `(?:~|\\.{1,2})?\\/?(?:[\\w@.-]+\\/)+[\\w@.-]*[\\w@-]|\\b[\\w-]+(?:\\.[\\w-]+)*\\.(?:${FILE_EXTENSIONS})\\b`,
      'g',
    ),
  ],
  ['version', /\bv\d+(?:\.\d+){0,3}(?:-[\w.]+)?\b|\b\d+\.\d+\.\d+(?:-[\w.]+)?\b/gi],
  [
    'identifier',
    /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b|\b(?=\w*[A-Za-z])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b|\b[A-Za-z][A-Za-z0-9]*_(?!\w)|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Za-z_]\w*(?=\(\))|\b[A-Za-z][A-Za-z0-9]*-\d+\b/g,
  ],
  ['number', /\b\d+(?:[.,]\d+)*/g],
];

/** A currency sign before a number is its unit: "$20" is "20 dollars". */
const CURRENCY_SIGNS: Readonly<Record<string, Dimension>> = { $: 'usd', '€': 'eur', '£': 'gbp' };

/** Two words with a slash that are prose, not a path. */
const PROSE_PAIRS = new Set(
  'and/or either/or read/write blue/green input/output client/server yes/no on/off true/false he/she his/her him/her pros/cons'.split(
    ' ',
  ),
);

const NUMBER_WORDS: Record<string, string> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  seventy: '70',
  eighty: '80',
  ninety: '90',
  hundred: '100',
  // Counts of times: "retried twice" and "retried 3 times" compare (not "once": it is as often "when").
  twice: '2 times',
  thrice: '3 times',
};
const NUMBER_WORD = new RegExp(`\\b(?:${Object.keys(NUMBER_WORDS).join('|')})\\b`, 'gi');

/**
 * What a number counts: the content word right after it, else the one right before; a unit of an
 * amount after it, or a currency sign before it, makes the number a measure.
 */
function unitOf(text: string, offset: number, length: number): { unit: string; factor?: number } | undefined {
  const currency = CURRENCY_SIGNS[text[offset - 1] ?? ''];
  if (currency) return { unit: currency, factor: 1 };
  const after = /^\s*(%|[\p{L}][\p{L}-]*)/u.exec(text.slice(offset + length))?.[1]?.toLowerCase();
  const measure = after === undefined ? undefined : MEASURES.get(after);
  if (measure) return { unit: measure.dimension, factor: measure.factor };
  if (after && !isFiller(after)) return { unit: stem(after) };
  const previous = /([\p{L}][\p{L}-]*)\s*$/u.exec(text.slice(0, offset))?.[1]?.toLowerCase();
  return previous && !isFiller(previous) ? { unit: stem(previous) } : undefined;
}

function normalise(kind: AnchorKind, raw: string): string {
  const value = raw.toLowerCase().replace(/[.,;:]+$/, '');
  if (kind === 'version') return value.replace(/^v/, '');
  // Leading zeros say nothing ("02" of "02:30" is 2).
  if (kind === 'number') return value.replace(/,(?=\d{3}\b)/g, '').replace(/^0+(?=\d)/, '');
  if (kind === 'time') return timeOfDay(value);
  if (kind === 'path') return value.replace(/^\.\//, '');
  return value;
}

/** `2:30 pm`, `14:30` and `14:30:00` as `14:30`; seconds stay when they are not zero. */
function timeOfDay(value: string): string {
  const [, hours, minutes, seconds, half] = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s?([ap])?/.exec(value) ?? [];
  let hour = Number(hours) % (half ? 12 : 24);
  if (half === 'p') hour += 12;
  return `${hour}:${minutes}${seconds && seconds !== '00' ? `:${seconds}` : ''}`;
}

/**
 * The anchors of `text`, each once.
 *
 * @example
 * extractAnchors('Retries go up to 5 in src/retry.ts since v2.1.0');
 * // [{ kind: 'path', value: 'src/retry.ts' }, { kind: 'version', value: '2.1.0' }, { kind: 'number', value: '5' }]
 */
export function extractAnchors(text: string): Anchor[] {
  let rest = text.replace(NUMBER_WORD, (word) => NUMBER_WORDS[word.toLowerCase()]!);
  const found = new Map<string, Anchor>();
  for (const [kind, pattern] of PATTERNS) {
    const before = rest;
    rest = rest.replace(pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      const offset = args[args.length - 2] as number;
      const inner = kind === 'quoted' ? args.slice(1, 4).find((g) => typeof g === 'string') : match;
      const value = normalise(kind, inner as string);
      if (kind === 'path' && PROSE_PAIRS.has(value)) return match;
      if (value.length === 0) return ' '.repeat(match.length);
      const counted = kind === 'number' ? unitOf(before, offset, match.length) : undefined;
      const measure = counted?.factor === undefined ? undefined : Number(value) * counted.factor;
      found.set(`${kind}:${value}:${counted?.unit ?? ''}`, {
        kind,
        value,
        ...(counted ? { unit: counted.unit } : {}),
        ...(measure !== undefined && Number.isFinite(measure) ? { measure } : {}),
      });
      return ' '.repeat(match.length);
    });
  }
  return [...found.values()];
}

/** A number with the unit of an amount after it. */
const MEASURED = new RegExp(
  `\\b\\d+(?:[.,]\\d+)*\\s*(%|(?:${[...MEASURES.keys()].filter((unit) => unit !== '%').join('|')})\\b)`,
  'gi',
);

/**
 * `text` with every anchor blanked out: what is left is the sentence's context words. Numbers in
 * words go as numbers do, and the unit of an amount (or a currency sign) becomes its dimension's word,
 * so "after 30 s" and "after thirty seconds" leave the same words, and "24 hours" and "48 hours"
 * still share one.
 */
export function withoutAnchors(text: string): string {
  let rest = text
    .replace(NUMBER_WORD, (word) => NUMBER_WORDS[word.toLowerCase()]!)
    .replace(/[$€£](?=\d)/g, (sign) => ` ${CURRENCY_SIGNS[sign]} `);
  for (const [kind, pattern] of PATTERNS) {
    if (kind === 'number') {
      rest = rest.replace(
        MEASURED,
        (_match, unit: string) => ` ${MEASURES.get(unit.toLowerCase())!.dimension} `,
      );
    }
    rest = rest.replace(pattern, ' ');
  }
  return rest;
}

/**
 * True when `anchor` appears in `evidence` (its anchors or, for text anchors, its raw text): a
 * path matches when one ends with the other (`auth.py` and `src/auth.py`).
 */
export function anchorFound(
  anchor: Anchor,
  evidenceAnchors: readonly Anchor[],
  evidenceText: string,
): boolean {
  const lower = evidenceText.toLowerCase();
  return evidenceAnchors.some((other) => sameAnchor(anchor, other)) || textContains(anchor, lower);
}

function sameAnchor(a: Anchor, b: Anchor): boolean {
  if (a.kind === 'number' && b.kind === 'number') {
    if (a.measure !== undefined && b.measure !== undefined && a.unit === b.unit) {
      return Math.abs(a.measure - b.measure) <= 1e-9 * Math.max(a.measure, b.measure);
    }
    return a.value === b.value && unitsAgree(a, b);
  }
  if (a.value === b.value) return true;
  if (a.kind === 'path' && b.kind === 'path')
    return a.value.endsWith(`/${b.value}`) || b.value.endsWith(`/${a.value}`);
  return false;
}

/** True when neither number says what it counts, or both count the same thing. */
export function unitsAgree(a: Anchor, b: Anchor): boolean {
  return a.unit === undefined || b.unit === undefined || a.unit === b.unit;
}

function textContains(anchor: Anchor, lowerText: string): boolean {
  // A number is only found with its unit, a time as a time (compared through the anchors), never
  // as bare text: "2:30" is in "12:30".
  if (anchor.kind === 'number' || anchor.kind === 'time') return false;
  if (anchor.kind === 'version') {
    return new RegExp(`(?<![\\w.])v?${escapeRegExp(anchor.value)}(?![\\w]|\\.\\d)`).test(lowerText);
  }
  return lowerText.includes(anchor.value);
}

/** Kinds that can stand in for one another: "Node 20" and "v20.1.0" say the same sort of thing. */
export function comparableKinds(kind: AnchorKind): readonly AnchorKind[] {
  return kind === 'number' || kind === 'version' ? ['number', 'version'] : [kind];
}
