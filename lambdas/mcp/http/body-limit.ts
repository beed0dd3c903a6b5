import { json } from './http-responses.js';

/** Request bodies larger than this are refused with 413, on every transport: MCP messages are small. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The 413 for a body over MAX_BODY_BYTES.
 *
 * @example
 * if (size > MAX_BODY_BYTES) return bodyTooLarge();
 */
export function bodyTooLarge(): Response {
  return json(413, { error: `Request body exceeds ${MAX_BODY_BYTES} bytes.` });
}
