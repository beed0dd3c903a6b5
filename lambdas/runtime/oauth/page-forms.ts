import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, limitedBody } from '../node-request-body.js';
import { PAGE_HEADERS, problemPage } from './interaction-pages.js';

/** Answers one of the sign-in, consent or admin pages, with their headers (CSP, no caching). */
export function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, PAGE_HEADERS);
  res.end(html);
}

/**
 * The CSRF token of a page's forms: an HMAC of what the form belongs to (`interaction:<uid>`,
 * `admin:<session uid>`), which no other site can read or compute.
 */
export function csrfToken(key: Buffer, boundTo: string): string {
  return createHmac('sha256', key).update(boundTo).digest('base64url');
}

/** True when a posted form carries the CSRF token of what it belongs to (compared in constant time). */
export function csrfTokenValid(key: Buffer, boundTo: string, presented: string | null): boolean {
  const expected = Buffer.from(csrfToken(key, boundTo));
  const given = Buffer.from(presented ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * A form body, read whole up to `maxBytes` (the pages post a handful of fields), or `undefined`
 * once a larger one has been answered 413 with a page: a caller's mistake, not a server fault.
 */
export async function readFormOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
): Promise<URLSearchParams | undefined> {
  try {
    return new URLSearchParams(await new Response(limitedBody(req, maxBytes)).text());
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendPage(res, 413, problemPage('Form too large', 'This page sends far less than that. Start again.'));
    return undefined;
  }
}
