import { AccessStore } from '../core/access/access-store.js';
import { CalendarService } from '../core/calendar/calendar-service.js';
import { type CalendarPlatform, composeProviders } from './compose-providers.js';

/**
 * Calendars through their providers, with grants, and the shadow calendar on top: what the
 * calendar tools and the sync job share. Kept apart from composeDeps so that the sync function
 * bundles no tool-side service (booking, holds) it never uses.
 *
 * @example
 * const { calendars, shadow } = composeCalendars(platform);
 */
export function composeCalendars(platform: CalendarPlatform) {
  const { store, clock, random, defaultTimezone } = platform;
  const access = new AccessStore({ store, clock, random });
  const { registry, providers, shadow } = composeProviders(platform);
  const calendars = new CalendarService({ registry, access, providers, clock, random, defaultTimezone });
  return { access, registry, calendars, shadow };
}

export type CalendarGraph = ReturnType<typeof composeCalendars>;
