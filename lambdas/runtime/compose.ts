import { AccessStore } from '../core/access/access-store.js';
import { CalendarRegistry } from '../core/calendar/calendar-registry.js';
import { CalendarService } from '../core/calendar/calendar-service.js';
import { NativeCalendarProvider } from '../core/calendar/native/native-calendar-provider.js';
import type { Clock, EnvelopeEncryption, RandomSource } from '../core/ports.js';
import { TableShadowCalendar } from '../core/shadow/table-shadow-calendar.js';
import type { DocumentStore } from '../core/storage/document-store.js';
import type { Logger, McpDeps } from '../mcp/deps.js';
import { createProviderResolver, type ProviderFactory } from './provider-resolver.js';

/** What differs between the runtimes; everything else is wired the same way by {@link composeDeps}. */
export interface Platform {
  store: DocumentStore;
  encryption: EnvelopeEncryption;
  clock: Clock;
  random: RandomSource;
  logger: Logger;
  version: string;
  defaultTimezone: string | undefined;
  factories: Partial<Record<'google' | 'caldav', ProviderFactory>>;
}

/**
 * Wires the domain services on top of a platform. Both composition roots (embedded, AWS) and the
 * tests call it, so the object graph a test exercises is the one users run.
 */
export function composeDeps(platform: Platform): McpDeps & {
  registry: CalendarRegistry;
  encryption: EnvelopeEncryption;
  store: DocumentStore;
  random: RandomSource;
} {
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
  return {
    clock,
    defaultTimezone,
    logger: platform.logger,
    version: platform.version,
    access,
    calendars,
    registry,
    encryption: platform.encryption,
    store,
    random,
    shadow,
  };
}
