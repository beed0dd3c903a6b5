import { invalidQuery } from './query-errors.js';

/** A condition as written: `property:value`, or a bare word or quoted phrase (no property). */
export interface TermToken {
  readonly type: 'term';
  readonly position: number;
  readonly property?: string;
  readonly value: string;
  /** Where the value starts, for value errors. */
  readonly valuePosition: number;
}

/** `property:(`: the values in the group that follows are the property's (`title:(a OR b)`). */
export interface FieldGroupToken {
  readonly type: 'field(';
  readonly position: number;
  readonly property: string;
}

export type Token =
  | { readonly type: '(' | ')' | '-' | 'OR' | 'AND' | 'NOT' | 'end'; readonly position: number }
  | TermToken
  | FieldGroupToken;

/** Queries are short; the cap keeps every error message (which quotes the query) readable. */
export const MAX_QUERY_LENGTH = 1000;

const KEYWORDS = new Set(['OR', 'AND', 'NOT']);
// A property name is letters and hyphens; anything else before a colon ("1:1", "10:30") is a word.
const PROPERTY_PREFIX = /^([A-Za-z][A-Za-z-]*):/;

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);
const endsRun = (ch: string | undefined) => ch === undefined || ch === '(' || ch === ')' || isSpace(ch);

/**
 * Splits a rule query into tokens. Values after `field:` may contain `:`, `@`, `.` and `-`
 * unquoted (`time-of-day:>17:00`, `email:bob@example.com`); a run ends only at white space or a
 * parenthesis. `field:(` opens a group of that field's values, as in Gmail. `-` negates only
 * where a condition starts and is followed directly by one.
 */
export function scanQuery(query: string): Token[] {
  if (query.length > MAX_QUERY_LENGTH) {
    throw invalidQuery(
      query.slice(0, 60),
      0,
      `The query is ${query.length} characters; at most ${MAX_QUERY_LENGTH} are allowed.`,
    );
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (isSpace(ch)) {
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch, position: i++ });
    } else if (ch === '-') {
      if (endsRun(query[i + 1]) && query[i + 1] !== '(')
        throw invalidQuery(query, i, "A '-' must be followed directly by a condition, e.g. -title:canceled.");
      tokens.push({ type: '-', position: i++ });
    } else if (ch === '"') {
      const phrase = readQuoted(query, i);
      tokens.push({ type: 'term', position: i, value: phrase.value, valuePosition: i });
      i = phrase.end;
    } else {
      const start = i;
      while (!endsRun(query[i])) i++;
      const word = query.slice(start, i);
      const prefix = PROPERTY_PREFIX.exec(word);
      if (KEYWORDS.has(word)) {
        tokens.push({ type: word as 'OR' | 'AND' | 'NOT', position: start });
      } else if (prefix) {
        const property = prefix[1]!;
        const valuePosition = start + prefix[0].length;
        let value = word.slice(prefix[0].length);
        if (value.startsWith('"')) {
          const quoted = readQuoted(query, valuePosition);
          value = quoted.value;
          i = quoted.end;
        } else if (value === '' && query[i] === '(') {
          tokens.push({ type: 'field(', position: start, property });
          i++;
          continue;
        } else if (value === '') {
          throw invalidQuery(
            query,
            valuePosition,
            `Expected a value after '${property}:'. Quote values with spaces or parentheses, e.g. ${property}:"team meeting".`,
          );
        }
        tokens.push({ type: 'term', position: start, property, value, valuePosition });
      } else {
        tokens.push({ type: 'term', position: start, value: word, valuePosition: start });
      }
    }
  }
  tokens.push({ type: 'end', position: query.length });
  return tokens;
}

/** Reads `"…"` starting at the quote; `\"` and `\\` are escapes. */
function readQuoted(query: string, open: number): { value: string; end: number } {
  let value = '';
  let i = open + 1;
  while (i < query.length) {
    const ch = query[i]!;
    if (ch === '\\' && (query[i + 1] === '"' || query[i + 1] === '\\')) {
      value += query[i + 1];
      i += 2;
    } else if (ch === '"') {
      if (!endsRun(query[i + 1]))
        throw invalidQuery(query, i + 1, 'Put a space after the closing quote before the next condition.');
      return { value, end: i + 1 };
    } else {
      value += ch;
      i++;
    }
  }
  throw invalidQuery(query, open, 'This quote is never closed: add a closing ".');
}
