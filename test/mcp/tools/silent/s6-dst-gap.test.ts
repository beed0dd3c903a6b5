import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs, PYTHON_DATEUTIL } from '../../../support/system-parts.js';
import { NEW_YORK, type SilentWorld, startSilentWorld } from './silent-world.js';

/**
 * The instants Python's zoneinfo gives a New York wall-clock start (fold=0, RFC 5545's reading of a
 * skipped time) and that start plus the wall-clock length from start to end (same-zone datetime
 * arithmetic), as UTC ISO strings.
 */
function zoneinfoSpan(startWall: string, endWall: string): [string, string] {
  const script = [
    'import sys',
    'from datetime import datetime, timezone',
    'from zoneinfo import ZoneInfo',
    'ny = ZoneInfo("America/New_York")',
    's = datetime.fromisoformat(sys.argv[1]).replace(tzinfo=ny)',
    'e = datetime.fromisoformat(sys.argv[2]).replace(tzinfo=ny)',
    'su = s.astimezone(timezone.utc)',
    'print(su.isoformat(), (su + (e - s)).isoformat())',
  ].join('\n');
  const out = execFileSync('python3', ['-c', script, startWall, endWall], { encoding: 'utf8' }).trim();
  return out.split(' ') as [string, string];
}

/** Issue 22 S6: an event written inside the spring-forward gap keeps its length and says it moved. */
describe('create_event inside a DST gap', () => {
  let world: SilentWorld;
  beforeAll(async () => {
    world = await startSilentWorld('2027-03-01T12:00:00Z');
  });
  afterAll(() => world?.close());

  const ny = (wall: string) => ({ date_time: wall, time_zone: NEW_YORK });

  it(
    'stores 02:30–04:30 on 14 March 2027 as 03:30–05:30 EDT (two hours, as zoneinfo) and warns',
    needs(PYTHON_DATEUTIL),
    async () => {
      const [startUtc, endUtc] = zoneinfoSpan('2027-03-14T02:30:00', '2027-03-14T04:30:00');

      const created = await world.ok('create_event', {
        calendar_id: world.calendars.none,
        summary: 'Night deploy',
        start: ny('2027-03-14T02:30:00'),
        end: ny('2027-03-14T04:30:00'),
        return_event: true,
      });

      expect([startUtc, endUtc]).toEqual(['2027-03-14T07:30:00+00:00', '2027-03-14T09:30:00+00:00']);
      expect(created.event).toMatchObject({
        start_utc: startUtc,
        end_utc: endUtc,
        start_local: '2027-03-14T03:30:00-04:00',
        end_local: '2027-03-14T05:30:00-04:00',
      });
      expect(created.warnings).toEqual([
        expect.objectContaining({ code: 'TIME_SHIFTED_BY_DST_GAP', field: 'start' }),
      ]);
      expect(created.warnings[0].message).toContain('2027-03-14T02:30:00');
    },
  );

  it('read in the calendar zone too: a local time on the New York calendar moves and warns the same', async () => {
    const created = await world.ok('create_event', {
      calendar_id: world.calendars.ny,
      summary: 'Night deploy',
      start: '2027-03-14T02:30',
      end: '2027-03-14T03:00',
      return_event: true,
    });

    expect(created.event).toMatchObject({
      start_local: '2027-03-14T03:30:00-04:00',
      end_local: '2027-03-14T04:00:00-04:00',
    });
    expect(created.warnings.map((w: { code: string; field: string }) => [w.code, w.field])).toEqual([
      ['TIME_SHIFTED_BY_DST_GAP', 'start'],
    ]);
  });

  it('warns of nothing for times the clock shows', async () => {
    const created = await world.ok('create_event', {
      calendar_id: world.calendars.ny,
      summary: 'Breakfast',
      start: ny('2027-03-14T08:30:00'),
      end: ny('2027-03-14T09:30:00'),
    });
    expect(created.warnings).toBeUndefined();
  });
});
