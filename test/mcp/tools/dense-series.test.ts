import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../support/mcp-client.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import { NY, OWNER, type ProviderCalendars, startProviderCalendars } from './provider-calendars.js';

const DAY = { start: '2026-03-02T00:00:00-05:00', end: '2026-03-03T00:00:00-05:00' };
const EVENING = { start: '2026-03-02T20:00:00-05:00', end: '2026-03-02T21:00:00-05:00' };

/**
 * Availability never calls busy time free: a calendar busy every second of a day (a FREQ=SECONDLY
 * series on native and CalDAV, 2,600 one-off events on Google) has more occurrences than one
 * answer reads. The tools refuse with TOO_MANY_OCCURRENCES instead of calling the unread part free.
 */
describe('a calendar with more occurrences in the window than one answer reads', needs(RADICALE), () => {
  let env: ProviderCalendars;

  beforeAll(async () => {
    env = await startProviderCalendars();
    const ticker = {
      summary: 'Ticker',
      start: { date_time: DAY.start, time_zone: NY },
      end: { date_time: '2026-03-02T00:00:01-05:00', time_zone: NY },
      // Bounded so that Radicale's own time-range filter ends; 86,400 occurrences, all on 2 March.
      recurrence: ['RRULE:FREQ=SECONDLY;UNTIL=20260303T045959Z'],
    };
    await env.seed('native', ticker);
    await env.seed('caldav', ticker);
    // Google expands series itself; what reaches Meridian is more events than one answer reads.
    const primary = env.google.store.calendar(OWNER);
    for (let i = 0; i < 2600; i += 1) {
      const start = Date.parse(DAY.start) + i * 30_000;
      env.google.store.insert(primary, {
        summary: `Slot ${i}`,
        start: { dateTime: new Date(start).toISOString(), timeZone: NY },
        end: { dateTime: new Date(start + 30_000).toISOString(), timeZone: NY },
      });
    }
  }, 60_000);

  afterAll(async () => {
    await env?.close();
  });

  const refusal = async (name: string, args: Record<string, unknown>) =>
    errorOf(await env.callRaw(name, args));

  describe.each([
    ['native', 'native', EVENING],
    ['caldav', 'caldav', EVENING],
    ['google', 'google', DAY],
  ] as const)('on %s, read live', (_name, provider, window) => {
    const calendar = () => env.calendars[provider];

    it('check_availability refuses instead of calling the unread part free', async () => {
      const error = await refusal('check_availability', { calendar_id: calendar(), ...window });

      expect(error).toMatchObject({ code: 'TOO_MANY_OCCURRENCES' });
      expect(error.message).toMatch(/shorter window/);
    });

    it('find_free_slots refuses', async () => {
      const error = await refusal('find_free_slots', {
        calendar_id: calendar(),
        ...DAY,
        min_duration_minutes: 30,
      });

      expect(error.code).toBe('TOO_MANY_OCCURRENCES');
    });

    it('get_availability refuses', async () => {
      const error = await refusal('get_availability', { calendar_ids: [calendar()], ...DAY });

      expect(error.code).toBe('TOO_MANY_OCCURRENCES');
    });

    it('find_free_time reports the calendar as an error, with no busy blocks to mistake for free', async () => {
      const answer = (await env.callRaw('find_free_time', { calendar_ids: [calendar()], ...DAY }))
        .structuredContent as { calendars: { busy: unknown[]; error?: { code: string } }[] };

      expect(answer.calendars).toEqual([
        expect.objectContaining({
          busy: [],
          error: expect.objectContaining({ code: 'TOO_MANY_OCCURRENCES' }),
        }),
      ]);
    });
  });

  it('book_slot still refuses a slot inside the series', async () => {
    const refused = await env.callRaw('book_slot', {
      calendar_id: env.calendars.native,
      start: '2026-03-02T20:00:00-05:00',
      end: '2026-03-02T20:30:00-05:00',
      summary: 'Interview',
    });

    expect(errorOf(refused).code).toBe('SLOT_TAKEN');
  });

  describe('on caldav, from the shadow calendar after a sync', () => {
    beforeAll(async () => {
      expect((await env.sync()).failed).toBe(0);
    }, 60_000);

    it('find_free_slots over the day refuses', async () => {
      const error = await refusal('find_free_slots', {
        calendar_id: env.calendars.caldav,
        ...DAY,
        min_duration_minutes: 30,
      });

      expect(error.code).toBe('TOO_MANY_OCCURRENCES');
    });

    it('check_availability of five minutes in the evening answers busy from the shadow', async () => {
      const answer = (
        await env.callRaw('check_availability', {
          calendar_id: env.calendars.caldav,
          start: '2026-03-02T20:00:00-05:00',
          end: '2026-03-02T20:05:00-05:00',
        })
      ).structuredContent as { available: boolean; conflicts: unknown[]; freshness: { source: string } };

      expect(answer.available).toBe(false);
      expect(answer.conflicts).toHaveLength(300);
      expect(answer.freshness.source).toBe('shadow');
    });
  });
});
