import type { CalendarRecord } from '../core/calendar/calendar-registry.js';
import { once } from '../core/once.js';
import type { DocumentStore, Logger } from '../core/ports/index.js';

/**
 * Calendars reached by their record — each record's provider and the shadow calendar
 * (compose-providers.ts) — loaded on the first call that reaches one, for the functions whose
 * first event may need none: a booking step on a native calendar, a sync run with no connected
 * calendar. Until then the function has loaded no provider, recurrence or shadow code. The graph
 * reuses the caller's document store.
 *
 * @example
 * const calendars = lazyAwsCalendars(process.env, logger, store);
 * const { provider, ref } = await calendars.providerFor(record); // loads the graph once
 */
export function lazyAwsCalendars(env: NodeJS.ProcessEnv, logger: Logger, store: DocumentStore) {
  const graph = once(async () => {
    const [{ awsPlatform }, { composeProviders }] = await Promise.all([
      import('./aws-platform.js'),
      import('./compose-providers.js'),
    ]);
    return composeProviders(awsPlatform(env, logger, { store }));
  });
  return {
    providerFor: async (record: CalendarRecord) => (await graph()).calendars.providerFor(record),
    shadow: async () => (await graph()).shadow,
  };
}
