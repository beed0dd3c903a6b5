import { TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/server';

/**
 * W3C Trace Context as MCP carries it: `traceparent` and `tracestate` in a request's `_meta`
 * (spec 2026-07-28, basic/index "OpenTelemetry trace context", SEP-414). Parsed by hand rather
 * than with `@opentelemetry/core`: the grammar is two regular expressions, and Meridian sends
 * no spans (no OTel SDK, no X-Ray SDK), so a whole propagator library would be dead weight in
 * every bundle. `baggage` is never read: it may carry whatever the caller's app put in it.
 */

/** A caller's trace position, checked: what a log line may carry. */
export interface TraceContext {
  /** `00-<trace-id>-<parent-id>-<flags>`, as received for version 00 (fields only, for later versions). */
  traceparent: string;
  /** The trace id alone (32 hex digits), the key log searches join on. */
  traceId: string;
  /** The vendors' list, when it is well formed; a malformed one is dropped, as the W3C text allows. */
  tracestate?: string;
}

// version-traceid-parentid-flags, lower-case hex only; a later version may append "-…" fields.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^\s]*)?$/;
const MAX_TRACEPARENT = 512;
const MAX_TRACESTATE = 512;
const MAX_TRACESTATE_MEMBERS = 32;
// key: simple (`vendor`) or multi-tenant (`tenant@vendor`); value: printable ASCII but `,` and `=`, not ending in a space.
const TRACESTATE_KEY =
  /^(?:[a-z0-9][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})$/;
const TRACESTATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

function parseTraceparent(value: unknown): Omit<TraceContext, 'tracestate'> | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACEPARENT) return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // ff is forbidden; version 00 has exactly four fields; all-zero ids are invalid.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceparent: `${version}-${traceId}-${parentId}-${flags}`, traceId };
}

function parseTracestate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACESTATE) return undefined;
  const members = value
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '');
  if (members.length === 0 || members.length > MAX_TRACESTATE_MEMBERS) return undefined;
  for (const member of members) {
    const equals = member.indexOf('=');
    if (equals <= 0) return undefined;
    if (!TRACESTATE_KEY.test(member.slice(0, equals)) || !TRACESTATE_VALUE.test(member.slice(equals + 1)))
      return undefined;
  }
  return members.join(',');
}

/**
 * The trace context in a request's `params._meta`, or undefined when it has none or a malformed
 * `traceparent` — which is ignored, never echoed: a caller cannot write what it likes into the
 * server's logs through it. A tracestate counts only beside a valid traceparent.
 *
 * @example
 * traceContextOf({ params: { _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' } } })
 *   ?.traceId; // '0af7651916cd43dd8448eb211c80319c'
 */
export function traceContextOf(message: unknown): TraceContext | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const carrier = meta as Record<string, unknown>;
  const parent = parseTraceparent(carrier[TRACEPARENT_META_KEY]);
  if (!parent) return undefined;
  const state = parseTracestate(carrier[TRACESTATE_META_KEY]);
  return state === undefined ? parent : { ...parent, tracestate: state };
}

/**
 * The trace context of an HTTP body: the message's, or in a batch the first request's that has
 * one (a batch is one HTTP request, and its log lines are that request's).
 */
export function traceContextOfBody(body: unknown): TraceContext | undefined {
  if (!Array.isArray(body)) return traceContextOf(body);
  for (const message of body) {
    const context = traceContextOf(message);
    if (context) return context;
  }
  return undefined;
}
