import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../fixtures/event-times-under-host-tz.ts', import.meta.url));
const HOST_ZONES = ['UTC', 'America/Los_Angeles', 'Australia/Sydney'];

/** Runs the fixture in a fresh Node process whose host zone is `tz` (TZ is read once per process). */
function storedUnder(tz: string): { hostZone: string; created: string[]; booked: string[] } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, TZ: tz },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`event-times-under-host-tz.ts under TZ=${tz} failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('create_event and book_slot', () => {
  describe('host time zone independence', () => {
    it('store the same instants for local times with TZ=UTC, America/Los_Angeles and Australia/Sydney', () => {
      // Act
      const outputs = HOST_ZONES.map(storedUnder);

      // Assert: each child really ran in its zone, and each stored what the event's zone says.
      expect(outputs.map((o) => o.hostZone)).toEqual(HOST_ZONES);
      for (const output of outputs) {
        expect(output.created).toEqual([
          '2026-01-15T08:00:00+00:00',
          '2026-03-29T01:30:00+00:00', // 02:30 does not exist: moved forward by the gap (03:30 CEST)
          '2026-10-25T00:30:00+00:00', // 02:30 happens twice: the first (CEST)
          '2026-07-01T14:30:00+00:00',
          '2026-11-30T05:00:00+00:00',
        ]);
        expect(output.booked).toEqual(['2026-02-10T10:00:00+09:00', '2026-02-10T10:30:00+09:00']);
      }
    }, 120_000); // three Node processes, each starting tsx and dynalite: slow on a loaded machine
  });
});
