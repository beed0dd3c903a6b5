import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../../lambdas/core/errors.js';
import { formatInstant } from '../../../../lambdas/core/time/instants.js';
import { resolveDatetime } from '../../../../lambdas/core/time/resolve/resolve-datetime.js';
import { frozenAt } from './helpers.js';

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Asia/Tokyo',
];
// 2012–2037: after Apia's skipped day; none of these zones changes offset at midnight then.
const instants = fc.integer({ min: Date.UTC(2012, 0, 1), max: Date.UTC(2037, 11, 31) });
const zones = fc.constantFrom(...ZONES);

function resolve(expression: string, referenceMs: number, timezone: string) {
  return resolveDatetime(frozenAt(new Date(referenceMs).toISOString()), { expression, timezone });
}

describe('resolveDatetime properties', () => {
  it('"in N hours" is exactly N × 3600 s after the reference in every zone', () => {
    fc.assert(
      fc.property(instants, zones, fc.integer({ min: 0, max: 20_000 }), (ref, zone, n) => {
        const result = resolve(`in ${n} hours`, ref, zone);
        expect(Date.parse(result.resolved_utc)).toBe(ref + n * 3_600_000);
      }),
    );
  });

  it('"N minutes ago" and "-Nm" are exactly N × 60 s before the reference', () => {
    fc.assert(
      fc.property(instants, zones, fc.integer({ min: 0, max: 100_000 }), (ref, zone, n) => {
        expect(Date.parse(resolve(`${n} minutes ago`, ref, zone).resolved_utc)).toBe(ref - n * 60_000);
        expect(Date.parse(resolve(`-${n}m`, ref, zone).resolved_utc)).toBe(ref - n * 60_000);
      }),
    );
  });

  it('"tomorrow" is 00:00 on the next calendar day in the zone', () => {
    fc.assert(
      fc.property(instants, zones, (ref, zone) => {
        const expected = DateTime.fromMillis(ref, { zone }).plus({ days: 1 }).startOf('day');
        expect(resolve('tomorrow', ref, zone).resolved_local).toBe(formatInstant(expected));
      }),
    );
  });

  it('returns any RFC 3339 instant with an offset unchanged', () => {
    fc.assert(
      fc.property(instants, zones, zones, (ms, writtenIn, readIn) => {
        const written = formatInstant(DateTime.fromMillis(Math.floor(ms / 1000) * 1000, { zone: writtenIn }));
        expect(Date.parse(resolve(written, 0, readIn).resolved_utc)).toBe(Date.parse(written));
      }),
    );
  });

  it('either resolves any text to a consistent RFC 3339 instant or throws a DomainError', () => {
    const word = fc.constantFrom(
      ...'next this last monday fri tomorrow tonight now at 2pm 14:00 24:00 in 3 99999 days hours ago from and of'.split(
        ' ',
      ),
      ...'first last march 2026-03 2026-03-15 +1d -30m end start beginning week quarter noon midnight evening the'.split(
        ' ',
      ),
    );
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.array(word, { maxLength: 6 }).map((words) => words.join(' ')),
    );
    fc.assert(
      fc.property(text, instants, zones, (expression, ref, zone) => {
        let result: ReturnType<typeof resolve>;
        try {
          result = resolve(expression, ref, zone);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          return;
        }
        expect(result.resolved_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+00:00$/);
        expect(Date.parse(result.resolved_local)).toBe(Date.parse(result.resolved_utc));
      }),
      { numRuns: 1000 },
    );
  });
});
