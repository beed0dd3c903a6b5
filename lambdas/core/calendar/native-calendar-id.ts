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
  return calendarId.startsWith('native/');
}
