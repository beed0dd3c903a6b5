import { z } from 'zod';
import {
  eventIdKeyBytes,
  MAX_CALENDAR_ID_BYTES,
  MAX_EMAIL_LENGTH,
  MAX_EVENT_ID_BYTES,
  MAX_INSTANT_TEXT_LENGTH,
  MAX_ZONE_NAME_LENGTH,
  utf8Bytes,
} from '../core/input-limits.js';

/**
 * A string of 1 to `max` characters. `abort` stops zod at the length check, so nothing else
 * (a regex, a refinement) ever runs on an oversized value.
 */
export const boundedString = (max: number) =>
  z
    .string()
    .min(1)
    .max(max, { message: `Too long: at most ${max} characters`, abort: true });

/** Shared input fields, described once so every tool explains them the same way. */
export const ianaZone = (purpose: string) =>
  boundedString(MAX_ZONE_NAME_LENGTH).describe(`IANA zone ${purpose}`);

export const rfc3339 = (purpose: string) =>
  boundedString(MAX_INSTANT_TEXT_LENGTH).describe(`RFC 3339 with offset: ${purpose}`);

/** An email address, bounded as RFC 5321 bounds it. */
export const emailAddress = z.string().max(MAX_EMAIL_LENGTH, { abort: true }).email();

/** A calendar id as the caller passes it: refused when it could not fit the store's keys. */
export const calendarIdString = () =>
  boundedString(MAX_CALENDAR_ID_BYTES).refine((id) => utf8Bytes(id) <= MAX_CALENDAR_ID_BYTES, {
    message: `Too long: at most ${MAX_CALENDAR_ID_BYTES} bytes in UTF-8; use an id from list_calendars`,
  });

/** An event id as the caller passes it: refused when it could not fit the store's keys. */
export const eventIdString = () =>
  boundedString(MAX_EVENT_ID_BYTES).refine((id) => eventIdKeyBytes(id) <= MAX_EVENT_ID_BYTES, {
    message: `Too long: at most ${MAX_EVENT_ID_BYTES} bytes in UTF-8 ("#" and "%" count 3); use an id from list_events`,
  });

export const outputFormat = z
  .enum(['toon', 'json'])
  .default('toon')
  .describe('"toon" (compact) or "json" text; structuredContent is JSON either way.');
