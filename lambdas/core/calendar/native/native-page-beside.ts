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
 * A native calendar's first page of events, read beside its registry record: the provider's
 * table reads are keyed by the native id the calendar id carries (`native/<native id>`), so they
 * need not wait for the record, one round trip instead of two. The page resolves `undefined`
 * when the record turns out not to be native (none is made so): the caller then reads the
 * calendar as what its record says. A record whose native id is not the id's is read again by
 * the provider for its own. Await `record` first: its refusal (NOT_FOUND) is the one to report;
 * the page's rejection is then already handled.
 *
 * @example
 * const { record, page } = nativePageBeside(native, 'native/5b2c…', registry.requireCalendar(id), query);
 * const calendar = await record;
 * const first = await page; // undefined: not native after all
 */
export function nativePageBeside(
  native: NativeEventsReader,
  calendarId: string,
  recordRead: Promise<CalendarRecord>,
  query: EventQuery,
): { record: Promise<CalendarRecord>; page: Promise<EventPage | undefined> } {
  const reference = recordRead.then((record) =>
    record.provider === 'native' ? calendarRefOf(record) : Promise.reject<CalendarRef>(NOT_NATIVE),
  );
  const page = native
    .listEventsBeside(calendarId.slice(NATIVE_ID_PREFIX.length), reference, query)
    .catch((error: unknown) => {
      if (error === NOT_NATIVE) return undefined;
      throw error;
    });
  page.catch(() => undefined); // reported through `record`, awaited first
  return { record: recordRead, page };
}
