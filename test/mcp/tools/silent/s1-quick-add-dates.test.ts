import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../../support/mcp-client.js';
import { type SilentWorld, startSilentWorld } from './silent-world.js';

/** Issue 22 S1: quick_add_event never drops date words it cannot read, and says when a time is past. */
describe('quick_add_event with date words it cannot read fully', () => {
  let world: SilentWorld;
  // Friday 27 November 2026, 11:00 in New York.
  beforeAll(async () => {
    world = await startSilentWorld('2026-11-27T16:00:00Z', { defaultTimezone: 'America/New_York' });
  });
  afterAll(() => world?.close());

  const quickAdd = (text: string) =>
    world.call('quick_add_event', { calendar_id: world.calendars.ny, text, return_event: true });

  it.each([
    ['Meeting 03/04 at 10', '03/04'],
    ['Dentist 3/4 at 10am', '3/4'],
    ['Review 4.3. at 14:00', '4.3.'],
  ])('refuses "%s", naming "%s" and what to write instead, and creates nothing', async (text, words) => {
    const result = await quickAdd(text);
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe('UNRECOGNIZED_EXPRESSION');
    expect(error.message).toContain(`"${words}"`);
    expect(error.message).toMatch(/year/);
    const listed = await world.ok('list_events', {
      calendar_id: world.calendars.ny,
      start: '2026-11-01T00:00:00Z',
      end: '2027-05-01T00:00:00Z',
      format: 'json',
    });
    expect(listed.events).toEqual([]);
  });

  it('answers both readings once the year is given, as resolve_datetime does', async () => {
    const result = await quickAdd('Dentist 3/4/2027 at 10am');
    expect(result.isError).toBeFalsy();
    const { understood } = result.structuredContent!;
    expect(understood.summary).toBe('Dentist');
    expect(understood.ambiguous).toBe(true);
    const readings = [
      understood.start,
      ...understood.alternatives.map((a: { resolved_local: string }) => a.resolved_local),
    ];
    expect(readings).toEqual(
      expect.arrayContaining(['2027-03-04T10:00:00-05:00', '2027-04-03T10:00:00-04:00']),
    );
  });

  it('says in warnings that an event created at a time already past is in the past', async () => {
    const result = await quickAdd('Standup today at 9am');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.warnings).toEqual([
      expect.objectContaining({
        code: 'TIME_IN_PAST',
        message: expect.stringContaining('2026-11-27T09:00:00-05:00'),
      }),
    ]);
  });

  it('gives no warnings for an event in the future', async () => {
    const result = await quickAdd('Standup tomorrow at 9am');
    expect(result.structuredContent!.warnings).toBeUndefined();
  });

  it('create_event also says when its start is past', async () => {
    const created = await world.ok('create_event', {
      calendar_id: world.calendars.ny,
      summary: 'Backfilled call',
      start: { date_time: '2026-11-26T09:00:00' },
      end: { date_time: '2026-11-26T10:00:00' },
    });
    expect(created.warnings).toEqual([expect.objectContaining({ code: 'TIME_IN_PAST' })]);
  });
});
