import * as z from 'zod';
import type { Compressor } from '../../ports/index.js';
import { Entry } from '../store/memory-schemas.js';

/**
 * A compressed context's body and its summary: the entries as gzipped JSON (base64, so the row
 * or blob holding it is text), and a summary made from the entries themselves, deterministic
 * and without a model.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The entries, gzipped, as base64. */
export async function packEntries(compressor: Compressor, entries: readonly Entry[]): Promise<string> {
  const gz = await compressor.compress(encoder.encode(JSON.stringify(entries)));
  return Buffer.from(gz).toString('base64');
}

/** The entries {@link packEntries} packed; throws if the body was damaged. */
export async function unpackEntries(compressor: Compressor, bodyGz: string): Promise<Entry[]> {
  const bytes = await compressor.decompress(new Uint8Array(Buffer.from(bodyGz, 'base64')));
  return z.array(Entry).parse(JSON.parse(decoder.decode(bytes)));
}

/**
 * One list from entries found in two places (rows and a compressed body, e.g. after a crash in
 * the middle of compressing or restoring): one per id, the highest version, oldest first.
 */
export function mergeEntries(...lists: readonly (readonly Entry[])[]): Entry[] {
  const byId = new Map<string, Entry>();
  for (const entry of lists.flat()) {
    const seen = byId.get(entry.entry_id);
    if (!seen || entry.version > seen.version) byId.set(entry.entry_id, entry);
  }
  return [...byId.values()].sort((a, b) => (a.entry_id < b.entry_id ? -1 : a.entry_id > b.entry_id ? 1 : 0));
}

const SUMMARY_ENTRIES = 5;
const SENTENCE_CHARS = 200;

/** The first sentence of `text`, cut at {@link SENTENCE_CHARS}. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length > SENTENCE_CHARS ? `${sentence.slice(0, SENTENCE_CHARS - 1)}…` : sentence;
}

/** The entries {@link summarize} quotes: a summary carries their flags. */
export function summarizedEntries(entries: readonly Entry[]): readonly Entry[] {
  return entries.slice(-SUMMARY_ENTRIES);
}

/**
 * What a branch is about and where it stands: its topic, how many messages, and the first
 * sentence of each of the latest few. The same entries always give the same summary.
 *
 * @example
 * summarize('Auth', entries); // 'Auth — 12 messages. Latest: Implemented JWT refresh. | Next: RBAC.'
 */
export function summarize(topic: string, entries: readonly Entry[]): string {
  if (entries.length === 0) return `${topic} — no messages yet.`;
  const latest = summarizedEntries(entries).map((entry) => firstSentence(entry.content));
  const count = `${entries.length} message${entries.length === 1 ? '' : 's'}`;
  return `${topic} — ${count}. Latest: ${latest.join(' | ')}`;
}
