import { SK } from './storage/key-prefixes.js';

/**
 * Size limits of caller input, in one place so the tool schemas (the edge, checked before any
 * work) and the core functions (which also serve the CLI, sync and booking steps) agree.
 *
 * Every string a caller sends is bounded: a 4 MB zone name once took 13 s of fuzzy matching.
 */

/** Longest IANA zone name is 32 characters ("America/Argentina/ComodRivadavia"); room to spare. */
export const MAX_ZONE_NAME_LENGTH = 64;

/** An RFC 3339 timestamp is 20–35 characters; fractional seconds may add a few. */
export const MAX_INSTANT_TEXT_LENGTH = 64;

/** Compact durations ("+1d2h30m"), working hours ("09:00-17:00") and other short codes. */
export const MAX_SHORT_TEXT_LENGTH = 64;

/** One RFC 5545 recurrence line (RRULE/EXDATE/RDATE). */
export const MAX_RECURRENCE_LINE_LENGTH = 2048;

/** RFC 5321: a forward path holds at most 256 octets, so an address at most 254 characters. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * Any string anywhere in a tool's arguments, whatever its schema says: above the largest field
 * (an event description, 8192) and small enough that no work on it is costly.
 */
export const MAX_ARGUMENT_STRING_LENGTH = 16_384;

/**
 * How deep arrays and objects may nest anywhere in a tool's arguments. The deepest schema
 * (batch_update_events: updates → item → patch → attendees → attendee) is 5 levels; a value
 * nested 10,000 deep once overflowed the stack in validation.
 */
export const MAX_ARGUMENT_DEPTH = 32;

/** Etags and opaque page tokens Meridian hands out. */
export const MAX_TOKEN_LENGTH = 2048;

// DynamoDB limits the keys of an item in UTF-8 bytes: partition key 2048, sort key 1024.
// Ids become parts of keys (lambdas/core/**/…-items.ts, access-store.ts, calendar-registry.ts),
// so an id that cannot fit its longest key is refused as input, not failed in the store.
const SORT_KEY_BYTES = 1024;
export const PARTITION_KEY_BYTES = 2048;

/**
 * A calendar id is stored whole as a sort key (the registry's index), and after `GRANT#` in a
 * key's grant; partition keys (`CAL#`, `SHADOW#`, `LOCK#`) allow twice that.
 */
export const MAX_CALENDAR_ID_BYTES = SORT_KEY_BYTES - SK.apiKey.grantPrefix.length;

/**
 * An event id is stored after `EVT#<start ISO ms>#` in a shadow sort key (the longest prefix it
 * gets), with `#` and `%` escaped to three bytes each (keyPart in shadow-items.ts).
 */
export const MAX_EVENT_ID_BYTES =
  SORT_KEY_BYTES - `${SK.shadow.shortEventPrefix}2026-01-01T00:00:00.000Z#`.length;

const utf8 = new TextEncoder();

/** Bytes `text` takes in UTF-8, as DynamoDB measures keys. */
export function utf8Bytes(text: string): number {
  return utf8.encode(text).length;
}

/** Bytes an event id takes in a sort key: UTF-8, with `#` and `%` escaped to `%23`/`%25`. */
export function eventIdKeyBytes(id: string): number {
  return utf8Bytes(id) + 2 * (id.match(/[#%]/g)?.length ?? 0);
}

/** Characters of caller input an error message repeats: enough to recognise it, never all of it. */
const ECHO_LENGTH = 64;

/**
 * Caller input cut to its first characters, the full length said, for a message that shows it
 * unquoted (`FREQ=…`).
 *
 * @example
 * excerpt('x'.repeat(5000)); // 'xxx…xxx… (5000 characters)'
 */
export function excerpt(text: string): string {
  return text.length <= ECHO_LENGTH ? text : `${text.slice(0, ECHO_LENGTH)}… (${text.length} characters)`;
}

/**
 * Caller input as an error message shows it: quoted, cut to its first characters with the full
 * length said, so a megabyte of input never comes back in a message.
 *
 * @example
 * echo('Europe/Lodnon'); // '"Europe/Lodnon"'
 * echo('x'.repeat(5000)); // '"xxx…xxx…" (5000 characters)'
 */
export function echo(text: string): string {
  if (text.length <= ECHO_LENGTH) return `"${text}"`;
  return `"${text.slice(0, ECHO_LENGTH)}…" (${text.length} characters)`;
}
