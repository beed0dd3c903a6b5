import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessStore } from '../../../lambdas/core/access/access-store.js';
import { LOCAL_OWNER, type Principal } from '../../../lambdas/core/access/rights.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { timesheetCsv } from '../../../lambdas/core/rules/timesheet-csv.js';
import { type RulesFixture, startRulesFixture, withGuests } from './rules-fixture.js';

/**
 * One calendar, the week before NOW (Berlin, UTC+1):
 * - "Acme sync", weekly on Fridays 10:00, 25 minutes, 4 occurrences (Oct 30 – Nov 20), with bob@acme.com;
 * - "Design review", Tue Nov 17 14:00, 60 minutes, with carol@globex.com;
 * - "Lunch", Wed Nov 18 12:00, 60 minutes, transparent (free);
 * - "Globex planning", Thu Nov 19 18:00, 90 minutes, with dan@globex.com, declined by the owner;
 * - "Focus time", Fri Nov 20 08:00, 120 minutes, alone;
 * - "Offsite", all day Thu Nov 12.
 */
describe('RulesService: preview, pins, explanations, timesheets (on dynalite)', () => {
  let fixture: RulesFixture;
  let acme: string;
  let globex: string;
  let internal: string;
  let designReview: string;
  let seriesOccurrence: string;

  beforeAll(async () => {
    fixture = await startRulesFixture();
    const { service } = fixture;
    acme = (
      await service.projects.create({ name: 'Acme', billable: true, rounding: { minutes: 15, mode: 'up' } })
    ).project_id;
    globex = (await service.projects.create({ name: 'Globex' })).project_id;
    internal = (await service.projects.create({ name: 'Internal' })).project_id;
    await fixture.addEvent('Acme sync', '2026-10-30T10:00:00', 25, {
      attendees: withGuests(['bob@acme.com']),
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    designReview = await fixture.addEvent('Design review', '2026-11-17T14:00:00', 60, {
      attendees: withGuests(['carol@globex.com']),
    });
    await fixture.addEvent('Lunch', '2026-11-18T12:00:00', 60, { transparency: 'transparent' });
    await fixture.addEvent('Globex planning', '2026-11-19T18:00:00', 90, {
      attendees: withGuests(['dan@globex.com'], 'declined'),
    });
    await fixture.addEvent('Focus time', '2026-11-20T08:00:00', 120);
    await fixture.runtime.calendars.createEvent(LOCAL_OWNER, fixture.calendarId, {
      summary: 'Offsite',
      start: { date: '2026-11-12' },
      end: { date: '2026-11-13' },
    });
    const preview = await service.previewRule(LOCAL_OWNER, { query: 'title:"acme sync"', limit: 1 });
    seriesOccurrence = preview.matches[0]!.event_id;
  });
  afterAll(async () => {
    await fixture.close();
  });

  describe('previewRule', () => {
    it('lists matches with the conditions that held, the totals, and the events that would move', async () => {
      const preview = await fixture.service.previewRule(LOCAL_OWNER, {
        query: 'domain:globex.com OR time-of-day:>=18:00',
        project_id: globex,
      });

      // "Globex planning" matches both conditions but the owner declined it: the timesheet does not
      // count it, so neither does the preview (one definition of counts, issue 22 S5).
      expect(preview.total_matched).toBe(1);
      expect(preview.minutes_matched).toBe(60);
      expect(preview.not_counted).toBe(1);
      expect(preview.matches.map((m) => [m.summary, m.matched_conditions])).toEqual([
        ['Design review', ['domain:globex.com']],
      ]);
      expect(preview.matches[0]).toMatchObject({
        calendar_id: fixture.calendarId,
        start: '2026-11-17T14:00:00+01:00',
        end: '2026-11-17T15:00:00+01:00',
      });
      expect(preview.change).toEqual({
        moves: [{ from_project_id: null, to_project_id: globex, events: 1, minutes: 60 }],
        events_moved: 1,
        unchanged: 0,
      });
    });

    it('defaults to 30 days back to 30 days ahead and honours limit', async () => {
      const preview = await fixture.service.previewRule(LOCAL_OWNER, { query: 'recurring:yes', limit: 2 });

      expect(preview.total_matched).toBe(4);
      expect(preview.matches).toHaveLength(2);
      expect(preview.window).toEqual({ start: '2026-10-24T12:00:00.000Z', end: '2026-12-23T12:00:00.000Z' });
    });

    it('refuses a limit out of range and a bad query with the typed error', async () => {
      const limit = await fixture.service
        .previewRule(LOCAL_OWNER, { query: 'title:a', limit: 501 })
        .catch((e) => e);
      const bad = await fixture.service.previewRule(LOCAL_OWNER, { query: 'weekday:fri' }).catch((e) => e);

      expect(isDomainError(limit, 'INVALID_INPUT')).toBe(true);
      expect(isDomainError(bad, 'INVALID_PROPERTY')).toBe(true);
      expect((bad as Error).message).toMatch(/day-of-week/);
    });
  });

  describe('classify, explain and the timesheet', () => {
    it('classifies by the conflict order, explains every loser, and lets a pin beat every rule', async () => {
      const { service } = fixture;
      const loose = await service.createRule(LOCAL_OWNER, { query: 'domain:acme.com', project_id: internal });
      const specific = await service.createRule(LOCAL_OWNER, {
        query: 'domain:acme.com title:sync',
        project_id: acme,
      });
      const heavy = await service.createRule(LOCAL_OWNER, {
        query: 'domain:globex.com',
        project_id: globex,
        weight: 5,
      });
      const light = await service.createRule(LOCAL_OWNER, {
        query: 'title:review',
        project_id: internal,
        weight: 1,
      });

      const series = await service.explainClassification(LOCAL_OWNER, {
        calendar_id: fixture.calendarId,
        event_id: seriesOccurrence,
      });
      const review = await service.explainClassification(LOCAL_OWNER, {
        calendar_id: fixture.calendarId,
        event_id: designReview,
      });
      await service.classifyEvent(LOCAL_OWNER, {
        calendar_id: fixture.calendarId,
        event_id: designReview,
        project_id: internal,
      });
      const pinned = await service.explainClassification(LOCAL_OWNER, {
        calendar_id: fixture.calendarId,
        event_id: designReview,
      });

      expect(series).toMatchObject({
        decided_by: 'rule',
        project_id: acme,
        winner: { rule_id: specific.rule_id },
      });
      expect(series.others).toEqual([
        expect.objectContaining({
          rule_id: loose.rule_id,
          lost_because: expect.stringMatching(/fewer conditions/),
        }),
      ]);
      expect(review).toMatchObject({
        decided_by: 'rule',
        project_id: globex,
        winner: { rule_id: heavy.rule_id },
      });
      expect(review.others).toEqual([
        expect.objectContaining({
          rule_id: light.rule_id,
          lost_because: expect.stringMatching(/lower weight \(1\)/),
        }),
      ]);
      expect(pinned).toMatchObject({ decided_by: 'pin', project_id: internal, pin: { scope: 'event' } });
      expect(pinned.others.map((o) => o.rule_id).sort()).toEqual([heavy.rule_id, light.rule_id].sort());
      expect(pinned.others[0]!.lost_because).toMatch(/pins beat rules/);
    });

    it('totals the counted time per project with rounding, billable minutes and unclassified clusters', async () => {
      const sheet = await fixture.service.getTimesheet(LOCAL_OWNER, {
        start: '2026-10-26T00:00:00+01:00',
        end: '2026-11-23T00:00:00+01:00',
        group_by: 'project',
      });

      // Acme: 4 × 25 min, each rounded up to 30; Internal: the pinned review; lunch (free),
      // the declined planning and the all-day offsite do not count.
      expect(sheet.groups).toEqual([
        { key: 'unclassified', raw_minutes: 120, rounded_minutes: 120, billable_minutes: 0, events: 1 },
        { key: acme, raw_minutes: 100, rounded_minutes: 120, billable_minutes: 120, events: 4 },
        { key: internal, raw_minutes: 60, rounded_minutes: 60, billable_minutes: 0, events: 1 },
      ]);
      expect(sheet.totals).toEqual({
        raw_minutes: 280,
        rounded_minutes: 300,
        billable_minutes: 120,
        events: 6,
      });
      expect(sheet.unclassified).toMatchObject({
        minutes: 120,
        events: 1,
        clusters: [{ label: 'focus time', events: 1, minutes: 120 }],
      });
    });

    it('renders the timesheet as CSV with project names, quoting what needs it', async () => {
      await fixture.service.projects.update(internal, { name: 'Internal, "ops"' });
      const sheet = await fixture.service.getTimesheet(LOCAL_OWNER, {
        start: '2026-10-26T00:00:00+01:00',
        end: '2026-11-23T00:00:00+01:00',
      });
      const names = new Map((await fixture.service.projects.list()).map((p) => [p.project_id, p.name]));

      expect(timesheetCsv(sheet, (key) => names.get(key)).split('\r\n')).toEqual([
        'key,label,raw_minutes,rounded_minutes,billable_minutes,events',
        'unclassified,unclassified,120,120,0,1',
        `${acme},Acme,100,120,120,4`,
        `${internal},"Internal, ""ops""",60,60,0,1`,
        'total,Total,280,300,120,6',
        '',
      ]);
    });

    it('groups by day in the zone, counts all-day events only when asked, and filters projects', async () => {
      const byDay = await fixture.service.getTimesheet(LOCAL_OWNER, {
        start: '2026-11-12T00:00:00+01:00',
        end: '2026-11-21T00:00:00+01:00',
        group_by: 'day',
        include_all_day: true,
      });
      const onlyAcme = await fixture.service.getTimesheet(LOCAL_OWNER, {
        start: '2026-10-26T00:00:00+01:00',
        end: '2026-11-23T00:00:00+01:00',
        project_ids: [acme],
        group_by: 'week',
      });

      expect(byDay.groups.map((g) => [g.key, g.raw_minutes])).toEqual([
        ['2026-11-12', 1440],
        ['2026-11-13', 25],
        ['2026-11-17', 60],
        ['2026-11-20', 145],
      ]);
      expect(onlyAcme.groups.map((g) => [g.key, g.raw_minutes])).toEqual([
        ['2026-W44', 25],
        ['2026-W45', 25],
        ['2026-W46', 25],
        ['2026-W47', 25],
      ]);
    });

    it('pins a whole series, so every occurrence moves', async () => {
      await fixture.service.classifyEvent(LOCAL_OWNER, {
        calendar_id: fixture.calendarId,
        event_id: seriesOccurrence,
        project_id: globex,
        scope: 'series',
      });

      const sheet = await fixture.service.getTimesheet(LOCAL_OWNER, {
        start: '2026-10-26T00:00:00+01:00',
        end: '2026-11-23T00:00:00+01:00',
        project_ids: [globex],
      });

      expect(sheet.groups).toEqual([
        { key: globex, raw_minutes: 100, rounded_minutes: 100, billable_minutes: 0, events: 4 },
      ]);
    });

    it('refuses a series pin on a one-off event, naming the field', async () => {
      const error = await fixture.service
        .classifyEvent(LOCAL_OWNER, {
          calendar_id: fixture.calendarId,
          event_id: designReview,
          project_id: acme,
          scope: 'series',
        })
        .catch((e: unknown) => e);

      expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as { details: { field: string } }).details.field).toBe('scope');
    });
  });

  describe('grants', () => {
    it('reads only the calendars a key may read: none is FORBIDDEN, not an empty preview', async () => {
      const access = new AccessStore({
        store: fixture.runtime.store,
        clock: fixture.runtime.clock,
        random: fixture.runtime.random,
      });
      const key = await access.createKey('stranger');
      const stranger: Principal = { kind: 'api-key', keyId: key.key_id, label: 'stranger' };

      const preview = await fixture.service
        .previewRule(stranger, { query: 'title:sync' })
        .catch((e: unknown) => e);
      const explain = await fixture.service
        .explainClassification(stranger, { calendar_id: fixture.calendarId, event_id: designReview })
        .catch((e: unknown) => e);

      expect(isDomainError(preview, 'FORBIDDEN')).toBe(true);
      expect(isDomainError(explain, 'FORBIDDEN')).toBe(true);
    });
  });
});
