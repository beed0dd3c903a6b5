import { AccessStore } from '../core/access/access-store.js';
import { CalendarRegistry } from '../core/calendar/calendar-registry.js';
import { CalendarService } from '../core/calendar/calendar-service.js';
import { NativeCalendarProvider } from '../core/calendar/native/native-calendar-provider.js';
import type { Clock, DocumentStore, EnvelopeEncryption, RandomSource } from '../core/ports/index.js';
import { TableShadowCalendar } from '../core/shadow/table-shadow-calendar.js';
import { createProviderResolver, type ProviderFactory } from './provider-resolver.js';

/** What the calendar part of the graph is built from: a subset of the runtime's Platform. */
export interface CalendarPlatform {
  store: DocumentStore;
  encryption: EnvelopeEncryption;
  clock: Clock;
  random: RandomSource;
  defaultTimezone: string | undefined;
  factories: Partial<Record<'google' | 'caldav', ProviderFactory>>;
}

/**
 * Calendars through their providers, with grants, and the shadow calendar on top: what the
 * calendar tools, the sync job and the booking steps that reach a provider share. Kept apart from
 * composeDeps so that the sync and booking-step functions bundle no tool-side service (booking,
 * holds) they never use.
 *
 * @example
 * const { calendars, shadow } = composeCalendars(platform);
 */
export function composeCalendars(platform: CalendarPlatform) {
  const { store, clock, random, defaultTimezone } = platform;
  const access = new AccessStore({ store, clock, random });
  const registry = new CalendarRegistry(store);
  const native = new NativeCalendarProvider({
    store,
    clock,
    random,
    ...(defaultTimezone ? { defaultTimezone } : {}),
  });
  const providers = createProviderResolver({
    native,
    registry,
    encryption: platform.encryption,
    factories: platform.factories,
  });
  const calendars = new CalendarService({ registry, access, providers, clock, random, defaultTimezone });
  const shadow = new TableShadowCalendar({ store, registry, calendars, clock, defaultTimezone });
  return { access, registry, calendars, shadow };
}

export type CalendarGraph = ReturnType<typeof composeCalendars>;
