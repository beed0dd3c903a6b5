import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../../support/mcp-client.js';
import { NEW_YORK, type SilentWorld, startSilentWorld } from './silent-world.js';

const BERLIN = 'Europe/Berlin';
const WINDOW = { start: '2027-03-01T00:00:00Z', end: '2027-04-01T00:00:00Z' };

/**
 * Issue 22 items 9 and 2 (list_events): a TOON answer is text only, so the default format saves
 * what it promises; list_events answers local times in a zone asked for, and says whether more
 * pages follow instead of a count that reads like a total.
 */
describe('list_events answers', () => {
  let world: SilentWorld;
  let seriesId: string;

  beforeAll(async () => {
    world = await startSilentWorld('2027-02-28T12:00:00Z');
    const series = await world.ok('create_event', {
      calendar_id: world.calendars.ny,
      summary: 'Team standup',
      start: { date_time: '2027-03-02T09:30:00', time_zone: NEW_YORK },
      end: { date_time: '2027-03-02T10:00:00', time_zone: NEW_YORK },
      recurrence: ['RRULE:FREQ=DAILY;COUNT=14'],
      attendees: ['ana@acme.com', 'sam@globex.com'],
    });
    seriesId = series.event_id;
  });
  afterAll(() => world?.close());

  describe('in TOON, the default', () => {
    it('carries the events once, as TOON text, with no structuredContent beside it', async () => {
      const toon = await world.call('list_events', WINDOW);
      const json = await world.call('list_events', { ...WINDOW, format: 'json' });

      const [text] = toon.content;
      expect(text?.type === 'text' && text.text).toMatch(/^events\[14\]\{id,calendar_id,summary,start,end,/m);
      expect(toon.structuredContent).toBeUndefined();
      // The whole answer as it crosses the wire: a third of the JSON one, not more than it.
      expect(JSON.stringify(toon).length).toBeLessThan(JSON.stringify(json).length / 3);
    });

    it('answers structuredContent, and the same JSON as text, when format is json', async () => {
      const json = await world.call('list_events', { ...WINDOW, format: 'json' });

      const [text] = json.content;
      expect(json.structuredContent?.events).toHaveLength(14);
      expect(text?.type === 'text' && JSON.parse(text.text)).toEqual(json.structuredContent);
    });
  });

  describe('with a timezone', () => {
    it('gives start_local and end_local in that zone, and keeps the event’s own zone in start', async () => {
      const { events } = await world.ok('list_events', {
        calendar_id: world.calendars.ny,
        ...WINDOW,
        timezone: BERLIN,
        max_results: 1,
      });

      expect(events[0]).toMatchObject({
        recurring_event_id: seriesId,
        start_utc: '2027-03-02T14:30:00+00:00',
        start_local: '2027-03-02T15:30:00+01:00',
        end_local: '2027-03-02T16:00:00+01:00',
        time_zone: BERLIN,
        start: { time_zone: NEW_YORK },
      });
    });

    it('follows each zone’s own DST: 14 March in New York is an hour nearer Berlin', async () => {
      const { events } = await world.ok('list_events', {
        calendar_id: world.calendars.ny,
        start: '2027-03-13T00:00:00Z',
        end: '2027-03-16T00:00:00Z',
        timezone: BERLIN,
      });

      expect(events.map((event: { start_local: string }) => event.start_local)).toEqual([
        '2027-03-13T15:30:00+01:00',
        '2027-03-14T14:30:00+01:00',
        '2027-03-15T14:30:00+01:00',
      ]);
    });

    it('refuses a zone it does not know with INVALID_TIMEZONE', async () => {
      const refusal = errorOf(await world.call('list_events', { ...WINDOW, timezone: 'Europe/Berlinn' }));

      expect(refusal.code).toBe('INVALID_TIMEZONE');
    });
  });

  describe('paging', () => {
    it('lists a month of fourteen events in one page by default', async () => {
      const page = await world.ok('list_events', { calendar_id: world.calendars.ny, ...WINDOW });

      expect([page.count, page.has_more, page.next_page_token]).toEqual([14, false, undefined]);
    });

    it('says has_more while another page follows, count being the page’s size', async () => {
      const first = await world.ok('list_events', { ...WINDOW, max_results: 8 });
      const second = await world.ok('list_events', {
        ...WINDOW,
        max_results: 8,
        page_token: first.next_page_token,
      });

      expect([first.count, first.has_more]).toEqual([8, true]);
      expect([second.count, second.has_more]).toEqual([6, false]);
    });
  });
});
