/**
 * Whether a calendar id names a native calendar, by the provider name every calendar id begins
 * with (`native/…`, `google/…`, `caldav/…`). A native calendar's events live in the table, so it
 * has no shadow copy: knowing that from the id spares a registry read and — in a booking step —
 * loading the shadow calendar at all.
 *
 * @example
 * isNativeCalendarId('native/5b2c…'); // true
 * isNativeCalendarId('google/c1/alice@example.com'); // false
 */
export function isNativeCalendarId(calendarId: string): boolean {
  return calendarId.startsWith(NATIVE_PREFIX);
}

/**
 * The native id a native calendar's id carries, or `undefined` for any other calendar id.
 *
 * @example
 * nativeIdOf('native/5b2c…'); // '5b2c…'
 */
export function nativeIdOf(calendarId: string): string | undefined {
  return isNativeCalendarId(calendarId) ? calendarId.slice(NATIVE_PREFIX.length) : undefined;
}

/** The calendar id of the native calendar with this native id. */
export function nativeCalendarId(nativeId: string): string {
  return `${NATIVE_PREFIX}${nativeId}`;
}

const NATIVE_PREFIX = 'native/';
