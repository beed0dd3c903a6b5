import { CallToolRequestParamsSchema } from '@modelcontextprotocol/core';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type * as z from 'zod';

/** What a well-formed tools/call names: the tool, and its arguments when any were sent. */
export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown> | undefined;
}

// What to say about the fields of tools/call params, in the terms of the JSON-RPC request.
const FIELD_HINTS: Record<string, string> = {
  params: 'must be an object such as {"name": "get_temporal_context", "arguments": {}}',
  name: 'must be the tool name as a string, e.g. "get_temporal_context" (see tools/list)',
  arguments:
    'must be a JSON object of the tool\'s named arguments, e.g. {"timezone": "Europe/London"}, or left out',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.') || 'params';
  return `"${field}" ${FIELD_HINTS[field] ?? `is invalid: ${issue.message}`}`;
}

/**
 * Validates the params of a tools/call request. A malformed request (params not an object,
 * `arguments: "str"`, no `name`) is the client's error: JSON-RPC -32602 Invalid params, with a
 * message naming each field and its expected shape — never the raw zod issue list.
 *
 * @example
 * parseCallToolParams({ name: 'get_temporal_context', arguments: {} }).name; // 'get_temporal_context'
 * parseCallToolParams({ name: 'x', arguments: 'str' }); // throws ProtocolError -32602
 */
export function parseCallToolParams(params: unknown): CallToolParams {
  const parsed = CallToolRequestParamsSchema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(describeIssue).join('; ');
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call params: ${problems}.`);
}
