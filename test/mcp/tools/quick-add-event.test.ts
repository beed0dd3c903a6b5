import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { createMcpServer } from '../../../lambdas/mcp/create-mcp-server.js';
import { callTool, errorOf, type ToolOutput as Json, okTool } from '../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

let runtime: TestRuntime;
let client: Client;
let calendarId: string;

const call = (name: string, args: Json) => callTool(client, name, args);
const quickAdd = (text: string) =>
  okTool(client, 'quick_add_event', { calendar_id: calendarId, text, return_event: true });

beforeAll(async () => {
  // Monday 2026-02-16, 10:30 in New York.
  runtime = await startTestRuntime({
    clock: fixedClock('2026-02-16T15:30:00Z'),
    defaultTimezone: 'America/New_York',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(runtime, { principal: LOCAL_OWNER }).connect(serverSide);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  const created = await call('create_calendar', { summary: 'Team', time_zone: 'America/New_York' });
  calendarId = (created.structuredContent as Json).calendar_id;
});

afterAll(async () => {
  await client.close();
  await runtime.close();
});

describe('quick_add_event tool', () => {
  describe('time ranges', () => {
    it('reads "Team dinner Friday 7pm-9pm" as a timed event from 19:00 to 21:00, not all day', async () => {
      const { understood, event } = await quickAdd('Team dinner Friday 7pm-9pm');
      expect(understood).toEqual({
        summary: 'Team dinner',
        time_expression: 'Friday 7pm-9pm',
        all_day: false,
        start: '2026-02-20T19:00:00-05:00',
        end: '2026-02-20T21:00:00-05:00',
        duration_minutes: 120,
        timezone: 'America/New_York',
        ignored: [],
      });
      expect(event).toMatchObject({
        summary: 'Team dinner',
        start_utc: '2026-02-21T00:00:00+00:00',
        end_utc: '2026-02-21T02:00:00+00:00',
      });
    });

    it.each([
      ['Review 14:00 to 15:30 tomorrow', '2026-02-17T14:00:00-05:00', '2026-02-17T15:30:00-05:00', 90],
      ['Standup Friday 9-9:15am', '2026-02-20T09:00:00-05:00', '2026-02-20T09:15:00-05:00', 15],
      ['Workshop Thursday from 11 to 1pm', '2026-02-19T11:00:00-05:00', '2026-02-19T13:00:00-05:00', 120],
      ['Late shift Friday 10pm-1am', '2026-02-20T22:00:00-05:00', '2026-02-21T01:00:00-05:00', 180],
      ['Yoga 7:30am–8:30am', '2026-02-16T07:30:00-05:00', '2026-02-16T08:30:00-05:00', 60],
    ])('reads "%s" as %s to %s (%i minutes)', async (text, start, end, minutes) => {
      const { understood } = await quickAdd(text);
      expect(understood).toMatchObject({
        all_day: false,
        start,
        end,
        duration_minutes: minutes,
        ignored: [],
      });
    });

    it('reads a range after a numbered date, with a location, and keeps a date alone all-day', async () => {
      const { understood } = await quickAdd('Offsite March 3 9am to 5pm at HQ');
      expect(understood).toMatchObject({
        summary: 'Offsite',
        location: 'HQ',
        all_day: false,
        start: '2026-03-03T09:00:00-05:00',
        end: '2026-03-03T17:00:00-05:00',
        ignored: [],
      });
      const allDay = await quickAdd('Offsite March 3');
      expect(allDay.understood).toMatchObject({ all_day: true, start: '2026-03-03', end: '2026-03-04' });
    });

    it('refuses a range it cannot read instead of ignoring it', async () => {
      const result = await call('quick_add_event', {
        calendar_id: calendarId,
        text: 'Party Friday 7pm to late',
      });
      expect(errorOf(result)).toMatchObject({ code: 'UNRECOGNIZED_EXPRESSION', range: '7pm to late' });
      expect(errorOf(result).message).toMatch(/"7pm-9pm" or "14:00 to 15:30"/);
    });

    it('refuses a range together with a length, or with a second time', async () => {
      const both = await call('quick_add_event', {
        calendar_id: calendarId,
        text: 'Dinner Friday 7pm-9pm for 30 minutes',
      });
      expect(errorOf(both).code).toBe('INVALID_INPUT');
      const twice = await call('quick_add_event', {
        calendar_id: calendarId,
        text: 'Dinner Friday at 6pm 7pm-9pm',
      });
      expect(errorOf(twice).code).toBe('INVALID_INPUT');
    });
  });

  describe('ignored words', () => {
    it('lists the words it used for nothing', async () => {
      const { understood } = await quickAdd('Team dinner Friday at 7pm with the whole team');
      expect(understood).toMatchObject({
        summary: 'Team dinner',
        time_expression: 'Friday at 7pm',
        ignored: ['with', 'the', 'whole', 'team'],
      });
    });

    it('lists nothing when every word has a place', async () => {
      const { understood } = await quickAdd('Lunch with Alice tomorrow at noon at Cafe Rio');
      expect(understood).toMatchObject({ location: 'Cafe Rio', ignored: [] });
    });
  });

  describe('bounded work', () => {
    it('refuses a text too long to search for its time within one call, saying how to shorten it', async () => {
      const words = Array.from({ length: 150 }, (_, i) => `x${i}`).join(' ');
      const result = await call('quick_add_event', { calendar_id: calendarId, text: `${words} tomorrow` });
      expect(errorOf(result).code).toBe('WORK_LIMIT_EXCEEDED');
      expect(errorOf(result).message).toMatch(/Shorten the text/);
    });

    it('finds the time at the end of a 40-word text (words past the 40th were dropped before)', async () => {
      const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
      const { understood } = await quickAdd(`${words} tomorrow at 3pm`);
      expect(understood).toMatchObject({
        time_expression: 'tomorrow at 3pm',
        start: '2026-02-17T15:00:00-05:00',
      });
    });
  });

  describe('ambiguity', () => {
    it('reports the other readings of the time as resolve_datetime does', async () => {
      const { understood } = await quickAdd('Call with Bob next Tuesday at 5');
      expect(understood.start).toBe('2026-02-24T05:00:00-05:00');
      expect(understood.ambiguous).toBe(true);
      expect(understood.alternatives.map((a: Json) => [a.resolved_local, a.rule])).toEqual([
        ['2026-02-17T05:00:00-05:00', 'the first Tuesday after today'],
        ['2026-02-24T17:00:00-05:00', 'the same time after noon (at 5 = 17:00)'],
      ]);
      const resolved = await call('resolve_datetime', { expression: 'next Tuesday at 5' });
      expect((resolved.structuredContent as Json).alternatives).toEqual(understood.alternatives);
    });

    it('says nothing about ambiguity when the time has one reading', async () => {
      const { understood } = await quickAdd('Dentist tomorrow at 2pm');
      expect(understood).not.toHaveProperty('ambiguous');
      expect(understood).not.toHaveProperty('alternatives');
    });
  });
});
