import { normaliseTerm } from './text-terms.js';

const WORD = /[\p{L}\p{N}]+/gu;
export const SNIPPET_LENGTH = 200;

/**
 * About {@link SNIPPET_LENGTH} characters of `text` around the first word that matches a query
 * term (the start when none does), cut at word boundaries and marked with "…" where cut.
 *
 * @example
 * snippet('… long note … the S3 upload retried three times …', new Set(['upload']));
 */
export function snippet(text: string, queryTerms: ReadonlySet<string>): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_LENGTH) return flat;
  let hit = 0;
  for (const match of flat.matchAll(WORD)) {
    const term = normaliseTerm(match[0]);
    if (term !== undefined && queryTerms.has(term)) {
      hit = match.index;
      break;
    }
  }
  // A third of the window before the hit, so the reader sees what led up to it.
  let start = Math.max(0, Math.min(hit - Math.floor(SNIPPET_LENGTH / 3), flat.length - SNIPPET_LENGTH));
  let end = Math.min(flat.length, start + SNIPPET_LENGTH);
  if (start > 0) start = nextWordStart(flat, start);
  if (end < flat.length) end = previousWordEnd(flat, end);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

function nextWordStart(text: string, from: number): number {
  const space = text.indexOf(' ', from);
  return space === -1 || space - from > 20 ? from : space + 1;
}

function previousWordEnd(text: string, from: number): number {
  const space = text.lastIndexOf(' ', from);
  return space === -1 || from - space > 20 ? from : space;
}
