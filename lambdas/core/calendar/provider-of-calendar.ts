import type { CalendarProvider, CalendarRef, ProviderResolver } from '../ports/index.js';
import type { CalendarRecord } from './calendar-registry.js';

/**
 * The provider that holds a calendar and the reference its methods take. Apart from
 * CalendarService so that code that reaches one calendar by its record (the booking steps, the
 * shadow calendar) need not load the service, its grants and its firewall.
 *
 * @example
 * const { provider, ref } = await providerOfCalendar(providers, record);
 * await provider.getEvent(ref, eventId);
 */
export async function providerOfCalendar(
  providers: ProviderResolver,
  record: CalendarRecord,
): Promise<{ provider: CalendarProvider; ref: CalendarRef }> {
  const provider = await providers.forConnection(record.connection_id);
  return { provider, ref: calendarRefOf(record) };
}

/** The reference a provider's methods take for the calendar a record describes. */
export function calendarRefOf(record: CalendarRecord): CalendarRef {
  return {
    native_id: record.native_id,
    calendar_id: record.calendar_id,
    ...(record.time_zone ? { time_zone: record.time_zone } : {}),
    ...(record.owner_email ? { owner_email: record.owner_email } : {}),
  };
}
