import type { CalendarRegistry } from '../core/calendar/calendar-registry.js';
import { NativeCalendarProvider } from '../core/calendar/native/native-calendar-provider.js';
import type { ConnectedProvider } from '../core/calendar/provider-kind.js';
import { providerOfCalendar } from '../core/calendar/provider-of-calendar.js';
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
  factories: Partial<Record<ConnectedProvider, ProviderFactory>>;
}

/**
 * Calendars reached by their record — the registry, each record's provider, the shadow calendar —
 * without grants or the content firewall: all a booking step needs, so its Lambda loads nothing
 * of the calendar tools. The wiring table (wiring.ts) builds the tool side on top of it.
 *
 * @example
 * const { calendars, shadow } = composeProviders(platform, new CalendarRegistry(platform.store));
 * const { provider, ref } = await providerFor(record);
 */
export function composeProviders(platform: CalendarPlatform, registry: CalendarRegistry) {
  const { store, clock, random, defaultTimezone } = platform;
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
  const calendars = {
    providerFor: (record: Parameters<typeof providerOfCalendar>[1]) => providerOfCalendar(providers, record),
  };
  const shadow = new TableShadowCalendar({ store, registry, calendars, native, clock, defaultTimezone });
  return { registry, native, providers, calendars, shadow };
}

export type ProviderGraph = ReturnType<typeof composeProviders>;
