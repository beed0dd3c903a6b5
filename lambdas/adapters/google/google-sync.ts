import type { calendar_v3 } from '@googleapis/calendar';
import type { CalendarEvent } from '../../core/calendar/event.js';
import { DomainError, isDomainError } from '../../core/errors.js';
import type { CalendarRef } from '../../core/ports/index.js';
import type { GoogleCall } from './google-call.js';
import { toCalendarEvent } from './google-mapping.js';

/**
 * Incremental sync of one Google calendar with sync tokens, for Meridian's shadow calendar.
 * Series come back as stored (masters with RRULEs plus edited or cancelled instances): expanding
 * them is the shadow calendar's job, and an open-ended series could not be expanded here anyway.
 */

export interface SyncResult {
  /** Events created or changed since the token (all events on a full resync). */
  events: CalendarEvent[];
  /**
   * Ids that no longer exist: deleted events, and cancelled instances of a series
   * (`<series id>_<original start>`), which hide that one occurrence.
   */
  deleted_ids: string[];
  /** Pass this to the next sync. */
  next_sync_token: string;
  /** True when the result is the whole calendar (no token given, or Google expired it): replace, do not merge. */
  full_resync: boolean;
}

const PAGE_SIZE = 2500;

/**
 * Lists what changed since `syncToken`, or everything when there is none or Google answers
 * 410 Gone (the token expired): then `full_resync` is true.
 *
 * @example
 * const first = await syncCalendar(api, call, ref);
 * const later = await syncCalendar(api, call, ref, first.next_sync_token);
 */
export async function syncCalendar(
  api: calendar_v3.Calendar,
  call: GoogleCall,
  calendar: CalendarRef,
  syncToken?: string,
): Promise<SyncResult> {
  if (syncToken) {
    try {
      return await listAll(api, call, calendar, syncToken);
    } catch (error) {
      if (!(isDomainError(error) && error.details.status === 410)) throw error;
    }
  }
  return listAll(api, call, calendar, undefined);
}

async function listAll(
  api: calendar_v3.Calendar,
  call: GoogleCall,
  calendar: CalendarRef,
  syncToken: string | undefined,
): Promise<SyncResult> {
  const result: SyncResult = { events: [], deleted_ids: [], next_sync_token: '', full_resync: !syncToken };
  let pageToken: string | undefined;
  for (;;) {
    const page = await call(
      () =>
        api.events.list({
          calendarId: calendar.native_id,
          singleEvents: false,
          maxResults: PAGE_SIZE,
          syncToken,
          pageToken,
        }),
      `Calendar "${calendar.calendar_id}"`,
    );
    for (const item of page.items ?? []) {
      if (item.status === 'cancelled') result.deleted_ids.push(item.id ?? '');
      else result.events.push(toCalendarEvent(item, calendar));
    }
    pageToken = page.nextPageToken ?? undefined;
    if (!pageToken) {
      // Google sends nextSyncToken on the last page only; a last page without one is a protocol break.
      if (!page.nextSyncToken) {
        throw new DomainError(
          'PROVIDER_ERROR',
          'Google Calendar ended a sync without a sync token. Try again later.',
        );
      }
      result.next_sync_token = page.nextSyncToken;
      return result;
    }
  }
}
