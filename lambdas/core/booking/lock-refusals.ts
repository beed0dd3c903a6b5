import { DomainError } from '../errors.js';
import { formatInstant, formatUtc } from '../time/instants.js';
import { DateTime } from '../time/luxon.js';
import type { Hold } from './booking-schemas.js';

/**
 * Why a hold on a slot was refused, given the active holds that overlap it (at least one): the
 * booking just made there (SLOT_TAKEN, times shown in `zone`), else the bookings in progress
 * (LOCK_CONTENDED, with when to retry). Apart from slot-locks.ts because only a refusal writes
 * times — with luxon, which Lock's cold start would otherwise load for nothing.
 *
 * @example
 * throw refusal(blocking, now, 'Europe/Paris', 'native/abc');
 */
export function refusal(blocking: Hold[], now: number, zone: string, calendarId: string): DomainError {
  const booked = blocking.find((h) => h.booked);
  return booked ? bookedJustNow(booked, zone, calendarId) : contended(blocking, now);
}

function bookedJustNow(entry: Hold, zone: string, calendarId: string): DomainError {
  const start = formatInstant(DateTime.fromMillis(entry.start_ms, { zone }));
  const end = formatInstant(DateTime.fromMillis(entry.end_ms, { zone }));
  const { event_id, summary } = entry.booked ?? { event_id: '', summary: '' };
  return new DomainError(
    'SLOT_TAKEN',
    `The slot overlaps "${summary}" (${start} – ${end}) on ${calendarId}, booked moments ago. Nothing was ` +
      'booked: pick a free slot (find_free_slots with slot_minutes) and call book_slot again.',
    { conflict: { source: 'booking', event_id, summary, start, end } },
  );
}

function contended(blocking: Hold[], now: number): DomainError {
  const until = Math.min(...blocking.map((h) => h.expires_at_ms));
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new DomainError(
    'LOCK_CONTENDED',
    `Another booking is in progress for an overlapping slot on this calendar. Retry in ${seconds} s: ` +
      'if that booking succeeds you will get SLOT_TAKEN, so you may prefer another slot (find_free_slots). ' +
      'Nothing was booked.',
    {
      retry_after_seconds: seconds,
      held: blocking.map((h) => ({ start: utcText(h.start_ms), end: utcText(h.end_ms) })),
    },
  );
}

function utcText(ms: number): string {
  return formatUtc(DateTime.fromMillis(ms, { zone: 'utc' }));
}
