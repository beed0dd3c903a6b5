/**
 * Whether a calendar has a shadow copy in the table. A native calendar has none: its events
 * already live there, read through its provider and always current. Decided by the id, which
 * begins with its provider's name (`native/…`), so that no registry read — and, in a booking
 * step, no loading of the shadow calendar — is spent on learning it.
 *
 * @example
 * hasShadow('native/5b2c…'); // false
 * hasShadow('google/c1/alice@example.com'); // true
 */
export function hasShadow(calendarId: string): boolean {
  return !calendarId.startsWith('native/');
}
