import type { CalendarRef, EventPage, EventQuery } from '../../ports/index.js';
import type { CalendarRecord } from '../calendar-registry.js';
import { calendarRefOf } from '../provider-of-calendar.js';
import type { NativeCalendarProvider } from './native-calendar-provider.js';

/** What reads a native calendar's events by its native id alone: the native provider. */
export type NativeEventsReader = Pick<NativeCalendarProvider, 'listEventsBeside'>;

const NATIVE_ID_PREFIX = 'native/';

/** A record read as native by its id that says it is something else. */
const NOT_NATIVE = Symbol('not native');

/**
 * A native calendar's record and the first page of its events, read together: the provider's
 * table reads are keyed by the native id the calendar id carries (`native/<native id>`), so they
 * need not wait for the record, one round trip instead of two. `firstPage` is `undefined` when
 * the record turns out not to be native (none is made so): the caller then reads the calendar as
 * what its record says. A record whose native id is not the id's is read again by the provider
 * for its own. The record's refusal (NOT_FOUND) is the one reported.
 *
 * @example
 * const { record, firstPage } = await readNativeBeside(native, id, registry.requireCalendar(id), query);
 */
export async function readNativeBeside(
  native: NativeEventsReader,
  calendarId: string,
  recordRead: Promise<CalendarRecord>,
  query: EventQuery,
): Promise<{ record: CalendarRecord; firstPage: EventPage | undefined }> {
  const reference = recordRead.then((record) =>
    record.provider === 'native' ? calendarRefOf(record) : Promise.reject<CalendarRef>(NOT_NATIVE),
  );
  const page = native
    .listEventsBeside(calendarId.slice(NATIVE_ID_PREFIX.length), reference, query)
    .catch((error: unknown) => {
      if (error === NOT_NATIVE) return undefined;
      throw error;
    });
  page.catch(() => undefined); // when the record's read fails, that failure is the one thrown
  const record = await recordRead;
  return { record, firstPage: await page };
}
