import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import type { Attendee } from '../../../lambdas/core/calendar/event.js';
import { errorOf } from '../../support/mcp-client.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import {
  NY,
  OWNER,
  PROVIDERS,
  type ProviderCalendars,
  type ProviderName,
  startProviderCalendars,
} from './provider-calendars.js';

const BOB = 'bob@example.com';

/**
 * Declined events never block, through every tool that decides busy time, on every provider:
 * first read live from the provider (no sync yet), then from the shadow calendar after a sync.
 * Each phase has its own day, so the bookings of one do not show in the other.
 */
describe('an event the calendar owner declined', needs(RADICALE), () => {
  let env: ProviderCalendars;
  const phases = [
    { name: 'before any sync', date: '2026-03-02', synced: false },
    { name: 'from the shadow calendar after a sync', date: '2026-03-03', synced: true },
  ] as const;

  beforeAll(async () => {
    env = await startProviderCalendars();
    const who = (owner: Attendee['response_status'], bob: Attendee['response_status']): Attendee[] => [
      { email: OWNER, response_status: owner },
      { email: BOB, response_status: bob },
    ];
    for (const provider of PROVIDERS) {
      for (const { date } of phases) {
        const event = (summary: string, from: string, to: string, attendees: Attendee[]) =>
          env.seed(provider, {
            summary,
            start: { date_time: `${date}T${from}:00-05:00`, time_zone: NY },
            end: { date_time: `${date}T${to}:00-05:00`, time_zone: NY },
            attendees,
          });
        await event('Offsite', '10:00', '11:00', who('declined', 'accepted'));
        await event('Review', '13:00', '14:00', who('accepted', 'needsAction'));
        // Bob declined, the owner did not: still busy for the owner.
        await event('Bob talks', '15:00', '16:00', who('accepted', 'declined'));
      }
    }
  }, 60_000);

  afterAll(async () => {
    await env?.close();
  });

  describe('owner_email on create_calendar', () => {
    it('is shown by list_calendars', async () => {
      const listed = await env.call('list_calendars', { provider: 'native', format: 'json' });

      expect(listed.calendars).toEqual([
        expect.objectContaining({ id: env.calendars.native, owner_email: OWNER }),
      ]);
    });

    it('is refused, naming the field, for a calendar on a connected account', async () => {
      const error = errorOf(
        await env.callRaw('create_calendar', {
          summary: 'Team',
          calendar_id: env.calendars.google,
          owner_email: OWNER,
        }),
      );

      expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'owner_email' });
      expect(error.message).toMatch(/native calendars only/);
    });

    it('is refused when it is not an email address', async () => {
      const result = await env.callRaw('create_calendar', { summary: 'Team', owner_email: 'ann' });

      expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT', problems: [{ field: 'owner_email' }] });
    });

    it('left out, nobody is the owner and a declined event still blocks', async () => {
      const anonymous = (await env.call('create_calendar', { summary: 'Shared', time_zone: NY }))
        .calendar_id as string;
      await env.runtime.calendars.createEvent(LOCAL_OWNER, anonymous, {
        summary: 'Planning',
        start: { date_time: '2026-03-04T10:00:00-05:00', time_zone: NY },
        end: { date_time: '2026-03-04T11:00:00-05:00', time_zone: NY },
        attendees: [{ email: OWNER, response_status: 'declined' }],
      });

      const answer = await env.call('check_availability', {
        calendar_id: anonymous,
        start: '2026-03-04T10:00:00-05:00',
        end: '2026-03-04T11:00:00-05:00',
      });

      expect(answer.available).toBe(false);
    });
  });

  describe.each(phases)('$name', ({ date, synced }) => {
    const local = (time: string) => `${date}T${time}:00-05:00`;
    const utc = (hour: number) => `${date}T${String(hour + 5).padStart(2, '0')}:00:00.000Z`;
    const day = { start: local('09:00'), end: local('17:00') };
    const busyBlocks = [
      { start: utc(13), end: utc(14) },
      { start: utc(15), end: utc(16) },
    ];

    beforeAll(async () => {
      if (synced) expect((await env.sync()).failed).toBe(0);
    });

    describe.each(PROVIDERS)('on %s', (provider: ProviderName) => {
      const calendar = () => env.calendars[provider];
      // Native calendars are always read directly (source "shadow"); connected ones live until synced.
      const source = provider === 'native' || synced ? 'shadow' : 'live';

      it('find_free_slots offers the declined time', async () => {
        const answer = await env.call('find_free_slots', {
          calendar_id: calendar(),
          ...day,
          min_duration_minutes: 30,
        });

        // Local times and weekdays beside UTC are the answers tools' concern; here: which time is free.
        expect(
          answer.slots.map(({ start, end, duration_minutes }: Record<string, unknown>) => ({
            start,
            end,
            duration_minutes,
          })),
        ).toEqual([
          { start: utc(9), end: utc(13), duration_minutes: 240 },
          { start: utc(14), end: utc(15), duration_minutes: 60 },
          { start: utc(16), end: utc(17), duration_minutes: 60 },
        ]);
        expect(answer.freshness).toMatchObject({ source });
      });

      it('check_availability calls the declined slot free, and the one only Bob declined busy', async () => {
        const declined = await env.call('check_availability', {
          calendar_id: calendar(),
          start: local('10:00'),
          end: local('11:00'),
        });
        const bobDeclined = await env.call('check_availability', {
          calendar_id: calendar(),
          start: local('15:00'),
          end: local('15:30'),
        });

        expect(declined).toMatchObject({ available: true, conflicts: [], freshness: { source } });
        expect(bobDeclined).toMatchObject({ available: false, conflicts: [{ kind: 'event' }] });
      });

      it('get_availability leaves the declined event out of busy time', async () => {
        const answer = await env.call('get_availability', {
          calendar_ids: [calendar()],
          ...day,
          privacy: 'full',
        });

        expect(
          answer.busy.map(({ start, end, source_count }: Record<string, unknown>) => ({
            start,
            end,
            source_count,
          })),
        ).toEqual(busyBlocks.map((b) => ({ ...b, source_count: 1 })));
      });

      it('find_free_time leaves the declined event out of busy time', async () => {
        const answer = await env.call('find_free_time', { calendar_ids: [calendar()], ...day });

        expect(answer.calendars).toEqual([
          expect.objectContaining({
            calendar_id: calendar(),
            busy: busyBlocks.map((block) => expect.objectContaining(block)),
            freshness: expect.objectContaining({ source }),
          }),
        ]);
      });

      it('book_slot books over the declined event and refuses the accepted one', async () => {
        const booked = await env.call('book_slot', {
          calendar_id: calendar(),
          start: local('10:00'),
          end: local('10:30'),
          summary: 'Interview',
        });
        const refused = await env.callRaw('book_slot', {
          calendar_id: calendar(),
          start: local('13:15'),
          end: local('13:45'),
          summary: 'Interview',
        });

        expect(booked.success).toBe(true);
        expect(errorOf(refused).code).toBe('SLOT_TAKEN');
      });
    });
  });
});
