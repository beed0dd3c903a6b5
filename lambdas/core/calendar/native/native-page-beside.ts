import type { CalendarRef } from '../../ports/index.js';
import type { CalendarRecord } from '../calendar-registry.js';
import { nativeIdOf } from '../native-calendar-id.js';
import { calendarRefOf } from '../provider-of-calendar.js';
import type { NativeCalendarProvider } from './native-calendar-provider.js';

/** What reads a native calendar's events by its native id alone: the native provider. */
export type NativeEventsReader = Pick<NativeCalendarProvider, 'listEventsBeside' | 'getEventBeside'>;

/** A record read as native by its id that says it is something else. */
const NOT_NATIVE = Symbol('not native');

/**
 * A native calendar's record and a read of its events (`read`: a page, one event), together: the
 * provider's table reads are keyed by the native id the calendar id carries (`native/<native
 * id>`), so they need not wait for the record, one round trip instead of two. `read` gets the
 * native id and the reference the record will give. `result` is `undefined` when the id is not a
 * native calendar's, or the record turns out not to be native (none is made so): the caller then
 * reads the calendar as what its record says. A record whose native id is not the id's is read
 * again by the provider for its own. The record's refusal (NOT_FOUND) is the one reported.
 *
 * @example
 * const { record, result: firstPage } = await readNativeBeside(id, registry.requireCalendar(id),
 *   (nativeId, reference) => native.listEventsBeside(nativeId, reference, query));
 */
export async function readNativeBeside<Result>(
  calendarId: string,
  recordRead: Promise<CalendarRecord>,
  read: (nativeId: string, reference: Promise<CalendarRef>) => Promise<Result>,
): Promise<{ record: CalendarRecord; result: Result | undefined }> {
  const nativeId = nativeIdOf(calendarId);
  if (nativeId === undefined) return { record: await recordRead, result: undefined };
  const reference = recordRead.then((record) =>
    record.provider === 'native' ? calendarRefOf(record) : Promise.reject<CalendarRef>(NOT_NATIVE),
  );
  const result = read(nativeId, reference).catch((error: unknown) => {
    if (error === NOT_NATIVE) return undefined;
    throw error;
  });
  result.catch(() => undefined); // when the record's read fails, that failure is the one thrown
  const record = await recordRead;
  return { record, result: await result };
}
