import type { MatchViews } from './match-views.js';
import type { Pattern } from './rule.js';

/*
 * One pass that proves, for most text, that no pattern can match. Every pattern written for
 * `anyPattern` is registered here; the patterns of one view (and the same flags) are joined into
 * one alternation with their lookarounds removed. Removing a zero-width assertion only lets a
 * regular expression match more, and an alternation matches wherever one of its branches does, so
 * when the joined expression finds nothing in a view, none of that view's patterns can: the rules
 * skip them. When it finds something, the rules run exactly as written, in order, and report the
 * same rule and excerpt as without the gate. Ordinary text trips no gate, and one scan per view
 * replaces about a hundred (most of them starting with a lookbehind tried at every position).
 */

interface Group {
  readonly view: keyof MatchViews;
  readonly flags: string;
  readonly sources: string[];
  gate?: RegExp;
}

const groups = new Map<string, Group>();
const registered: Pattern[] = [];
// The verdicts for the views the rules are reading: the rules run over one views at a time,
// synchronously, so remembering the last one is enough (and cheaper than a WeakMap per text).
let lastViews: MatchViews | undefined;
let verdicts = new Map<string, boolean>();

/**
 * Registers `patterns` and returns the keys of their groups, or undefined when one cannot be
 * widened safely (a back-reference, or a stateful g/y flag): such patterns are always run.
 */
export function registerPatterns(patterns: readonly Pattern[]): readonly string[] | undefined {
  const widened = patterns.map((p) => (/[gy]/.test(p.re.flags) ? undefined : widenedSource(p.re.source)));
  if (widened.some((source) => source === undefined)) return undefined;
  registered.push(...patterns);
  const keys = new Set<string>();
  patterns.forEach(({ view, re }, i) => {
    const key = `${view}/${re.flags}`;
    const group = groups.get(key) ?? { view, flags: re.flags, sources: [] };
    group.sources.push(`(?:${widened[i]})`);
    group.gate = undefined;
    groups.set(key, group);
    keys.add(key);
  });
  return [...keys];
}

/** Every gated pattern, for the test that checks each widened pattern matches wherever it did. */
export function gatedPatterns(): readonly Pattern[] {
  return registered;
}

/** Whether some pattern of a group in `keys` may match `views`; each group is scanned once per views. */
export function mayMatch(views: MatchViews, keys: readonly string[]): boolean {
  if (views !== lastViews) {
    lastViews = views;
    verdicts = new Map();
  }
  for (const key of keys) {
    let found = verdicts.get(key);
    if (found === undefined) {
      const group = groups.get(key)!;
      group.gate ??= new RegExp(group.sources.join('|'), group.flags);
      found = group.gate.test(views[group.view]);
      verdicts.set(key, found);
    }
    if (found) return true;
  }
  return false;
}

const LOOKAROUND = /^\(\?<?[=!]/;

/**
 * `source` without its lookahead and lookbehind groups; undefined when it has a back-reference
 * (numbering would shift once joined with others).
 *
 * @example
 * widenedSource(String.raw`(?<!not )\bignore\b(?! me)`); // '\\bignore\\b'
 */
export function widenedSource(source: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') {
      if (/[1-9k]/.test(source[i + 1] ?? '')) return undefined;
      out += source.slice(i, i + 2);
      i += 2;
    } else if (ch === '[') {
      const end = classEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (ch === '(' && LOOKAROUND.test(source.slice(i, i + 4))) {
      i = groupEnd(source, i);
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/** The index after the character class opening at `start` (no nested classes without the v flag). */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The index after the group opening at `start`. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') i += 2;
    else if (ch === '[') i = classEnd(source, i);
    else {
      if (ch === '(') depth += 1;
      if (ch === ')') depth -= 1;
      i += 1;
      if (depth === 0) return i;
    }
  }
  return i;
}
