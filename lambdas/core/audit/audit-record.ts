import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/**
 * Where a change came from: a tool call (HTTP, stdio, CLI commands run as tools), a CLI admin
 * command, or the sign-in (the embedded authorization server: sign-ins, consents, clients, tokens).
 */
export type AuditSource = 'tool' | 'cli' | 'oauth';

/** What is known of a change before it is made: the part of a record the chain covers. */
export interface AuditEntry {
  /** RFC 3339 instant the change was asked for. */
  at: string;
  /** `key:<id>`, `local-owner`, for the sign-in `user:<name>`, `client:<id>` or `anonymous`; never a secret. */
  principal: string;
  /** The client as it identified itself (user agent, `stdio`, `cli`), shortened. */
  client: string;
  source: AuditSource;
  /** The tool (`create_event`) or command (`keys revoke`). */
  action: string;
  request_id: string;
  /** SHA-256 of the canonical arguments: what was asked, in full, without storing it. */
  input_digest: string;
  /** The arguments' small values, redacted (see {@link redactedValues}). */
  input_values: Record<string, string | number | boolean>;
  /** Ids the arguments name (calendar_id, project_id, event_id, key ids …). */
  resource_ids: string[];
}

/** How a change ended: written when it did, so a record without it was cut off by a crash. */
export interface AuditCompletion {
  completed_at: string;
  /** `ok`; `refused` (a domain error: nothing or only part was changed, as the code says); `failed` (a server fault). */
  outcome: 'ok' | 'refused' | 'failed';
  code?: string;
  /** SHA-256 of the canonical answer: what the change produced. */
  output_digest?: string;
  /** Ids the answer names (a created event's id …). */
  output_resource_ids?: string[];
}

/** One record as stored and listed: its place in the day's chain, and its completion once known. */
export interface AuditRecord extends AuditEntry {
  day: string;
  seq: number;
  /** The previous record's `hash` (the day's genesis value for seq 1). */
  prev: string;
  /** SHA-256 over `prev` and the entry: changing, removing, inserting or reordering breaks the chain. */
  hash: string;
  status: 'pending' | 'completed';
  completion?: AuditCompletion;
  /** SHA-256 over `hash` and the completion, so a completion cannot be changed unseen either. */
  completion_hash?: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What seq 1 of a day follows: bound to the day, so a chain cannot be moved to another one. */
export function genesisHash(day: string): string {
  return sha256(`meridian audit log\n${day}`);
}

/** The chain hash of one record: its previous hash and every field of its entry, canonical. */
export function chainHash(prev: string, seq: number, entry: AuditEntry): string {
  const { at, principal, client, source, action, request_id, input_digest, input_values, resource_ids } =
    entry;
  const chained = {
    seq,
    at,
    principal,
    client,
    source,
    action,
    request_id,
    input_digest,
    input_values,
    resource_ids,
  };
  return sha256(`${prev}\n${canonicalJson(chained)}`);
}

export function completionHash(hash: string, completion: AuditCompletion): string {
  return sha256(`${hash}\n${canonicalJson(completion)}`);
}

/** SHA-256 of a value's canonical JSON; `undefined` digests as null. */
export function digestOf(value: unknown): string {
  return sha256(canonicalJson(value ?? null));
}

const ID_FIELD = /(^|_)ids?$/;
const SMALL_TEXT = 64;
const MAX_IDS = 20;

/**
 * The small values of a call's top-level arguments, safe to keep in the log: ids (fields named
 * `id` or `…_id`) up to 64 characters, numbers and booleans as they are; any other text only by
 * its length (`[text 12 chars]`) — summaries, descriptions and bodies may hold personal data or
 * secrets. Objects and lists are left to the digest.
 *
 * @example
 * redactedValues({ calendar_id: 'native/a', summary: 'Dentist' }); // { calendar_id: 'native/a', summary: '[text 7 chars]' }
 */
export function redactedValues(args: unknown): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  if (!args || typeof args !== 'object' || Array.isArray(args)) return values;
  for (const [name, value] of Object.entries(args)) {
    if (typeof value === 'number' || typeof value === 'boolean') values[name] = value;
    else if (typeof value === 'string')
      values[name] =
        ID_FIELD.test(name) && value.length <= SMALL_TEXT ? value : `[text ${value.length} chars]`;
  }
  return values;
}

/**
 * The resource ids a value names: string values of fields called `id` or `…_id` (and the items of
 * `…_ids` lists), at the top level and one level down, at most 20, in order, without repeats.
 */
export function resourceIds(value: unknown): string[] {
  const found = new Set<string>();
  const visit = (node: unknown, depth: number) => {
    if (!node || typeof node !== 'object' || found.size >= MAX_IDS) return;
    for (const [name, child] of Object.entries(node)) {
      if (ID_FIELD.test(name)) {
        for (const id of Array.isArray(child) ? child : [child])
          if (typeof id === 'string' && id.length <= 256 && found.size < MAX_IDS) found.add(id);
      } else if (depth < 1) visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return [...found];
}
