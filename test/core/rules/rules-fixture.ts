import { LOCAL_OWNER, type Principal } from '../../../lambdas/core/access/rights.js';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { RulesService } from '../../../lambdas/core/rules/rules-service.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** Monday 23 November 2026, noon UTC: "the last 30 days" reach back to 24 October. */
export const NOW = '2026-11-23T12:00:00Z';
export const OWNER = 'me@meridian.dev';

export interface RulesFixture {
  runtime: TestRuntime;
  service: RulesService;
  calendarId: string;
  /** Adds an event to the fixture's calendar (or another) at a Berlin wall-clock time. */
  addEvent(
    summary: string,
    start: string,
    minutes: number,
    extra?: Partial<EventDraft> & { attendees?: EventDraft['attendees'] },
    calendarId?: string,
    principal?: Principal,
  ): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real runtime on dynalite with one native calendar "Work" (Europe/Berlin, owned by
 * me@meridian.dev) and the rules service over it, the clock frozen at {@link NOW}.
 */
export async function startRulesFixture(): Promise<RulesFixture> {
  const runtime = await startTestRuntime({ clock: fixedClock(NOW), defaultTimezone: 'Europe/Berlin' });
  const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
    name: 'Work',
    time_zone: 'Europe/Berlin',
    owner_email: OWNER,
  });
  const service = new RulesService({
    store: runtime.store,
    clock: runtime.clock,
    random: runtime.random,
    calendars: async () => runtime.calendars,
    access: runtime.access,
  });
  return {
    runtime,
    service,
    calendarId: calendar.id,
    async addEvent(summary, start, minutes, extra = {}, calendarId = calendar.id, principal = LOCAL_OWNER) {
      const startMs = Date.parse(`${start}Z`);
      const end = new Date(startMs + minutes * 60_000).toISOString().slice(0, 19);
      const event = await runtime.calendars.createEvent(principal, calendarId, {
        summary,
        start: { date_time: start, time_zone: 'Europe/Berlin' },
        end: { date_time: end, time_zone: 'Europe/Berlin' },
        ...extra,
      });
      return event.id;
    },
    close: () => runtime.close(),
  };
}

/** An attendee list: the owner (with their response) and guests. */
export function withGuests(
  guests: string[],
  ownerResponse: 'accepted' | 'declined' | 'tentative' | 'needsAction' = 'accepted',
): EventDraft['attendees'] {
  return [
    { email: OWNER, response_status: ownerResponse },
    ...guests.map((email) => ({ email, response_status: 'accepted' as const })),
  ];
}
