import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../support/mcp-client.js';
import { guests, type RulesHttp, startRulesHttp } from './rules-http.js';

interface Rule {
  rule_id: string;
  query: string;
  weight: number;
  version: number;
}

/**
 * The rules toolset end to end through the SDK's real Client over HTTP: a project, a rule
 * previewed then saved, a hand classification, explanations, and the timesheet in every format.
 */
describe('the rules tools over HTTP', () => {
  let http: RulesHttp;
  let acme: string;
  const ids: Record<string, string> = {};
  const week = { start: '2026-11-16T00:00:00+01:00', end: '2026-11-23T00:00:00+01:00' };

  beforeAll(async () => {
    http = await startRulesHttp();
    ids.sync = await http.addEvent('Acme sync', '2026-11-16T09:00:00', 60, {
      attendees: guests('bob@acme.com'),
    });
    ids.review = await http.addEvent('Acme review', '2026-11-18T14:00:00', 50, {
      attendees: guests('ann@acme.com'),
    });
    ids.lunch = await http.addEvent('Lunch', '2026-11-17T12:00:00', 45);
    ids.deep = await http.addEvent('Deep work', '2026-11-19T10:00:00', 90);
    // Before the timesheet's week, inside the 30 days suggestions read: an external domain twice.
    for (const day of ['2026-11-09', '2026-11-10'])
      await http.addEvent('Globex call', `${day}T16:00:00`, 30, { attendees: guests('kim@globex.com') });
    ({
      project: { project_id: acme },
    } = await http.agents.alice.ok<{ project: { project_id: string } }>('create_project', {
      name: 'Acme',
      billable: true,
      rounding: { minutes: 15, mode: 'up' },
    }));
  });

  afterAll(async () => {
    await http?.close();
  });

  describe('project → rule → preview → classify → explain → timesheet', () => {
    let domainRule: Rule;
    let titleRule: Rule;

    it('previews an unsaved query: matches, the conditions that held, and what would move', async () => {
      const preview = await http.agents.alice.ok('preview_rule', {
        query: 'domain:ACME.com',
        project_id: acme,
        format: 'json',
      });

      expect(preview).toMatchObject({
        query: 'domain:acme.com',
        total_matched: 2,
        minutes_matched: 110,
        change: { moves: [{ from_project_id: null, to_project_id: acme, events: 2, minutes: 110 }] },
      });
      expect((preview.matches as { summary: string; matched_conditions: string[] }[])[0]).toMatchObject({
        summary: 'Acme sync',
        matched_conditions: ['domain:acme.com'],
      });
    });

    it('reads a property before a group as Gmail does: title:(a OR b)', async () => {
      const preview = await http.agents.alice.ok('preview_rule', {
        query: 'title:acme -title:(review OR retro)',
        format: 'json',
      });

      expect(preview).toMatchObject({ query: 'title:acme -(title:review OR title:retro)', total_matched: 1 });
      expect((preview.matches as { summary: string }[]).map((m) => m.summary)).toEqual(['Acme sync']);
    });

    it('saves a raw query canonically and assembles one from structured conditions', async () => {
      ({ rule: domainRule } = await http.agents.alice.ok<{ rule: Rule }>('create_rule', {
        query: 'domain:ACME.com',
        project_id: acme,
      }));
      ({ rule: titleRule } = await http.agents.alice.ok<{ rule: Rule }>('create_classification_rule', {
        project_id: acme,
        conditions: [{ property: 'title', value: 'acme "review"' }],
        weight: 2,
      }));

      expect(domainRule).toMatchObject({ query: 'domain:acme.com', weight: 1, version: 1 });
      expect(titleRule.query).toBe('title:"acme \\"review\\""');
    });

    it('pins an event by hand, and explains pins and rule conflicts', async () => {
      await http.agents.alice.ok('classify_event', {
        calendar_id: http.calendarId,
        event_id: ids.lunch,
        project_id: acme,
      });
      // The structured rule's quotes are part of the value: "acme review" alone does not match it.
      await http.agents.alice.ok('update_rule', {
        rule_id: titleRule.rule_id,
        query: 'title:"acme review"',
        if_version: 1,
      });

      const review = await http.agents.alice.ok('explain_classification', {
        calendar_id: http.calendarId,
        event_id: ids.review,
      });
      const lunch = await http.agents.alice.ok('explain_classification', {
        calendar_id: http.calendarId,
        event_id: ids.lunch,
      });

      expect(review).toMatchObject({
        project_id: acme,
        decided_by: 'rule',
        winner: { rule_id: titleRule.rule_id, weight: 2 },
        others: [{ rule_id: domainRule.rule_id, lost_because: expect.stringContaining('lower weight (1)') }],
      });
      expect(lunch).toMatchObject({ project_id: acme, decided_by: 'pin', pin: { scope: 'event' } });
    });

    it('lists each rule with the events it matched and won', async () => {
      const { rules } = await http.agents.alice.ok<{
        rules: (Rule & { events_matched: number; events_won: number })[];
      }>('list_rules', { format: 'json' });

      // The clock is frozen: rules created in the same instant list in id order, so sort by query.
      expect(rules.map((r) => [r.query, r.events_matched, r.events_won]).sort()).toEqual([
        ['domain:acme.com', 2, 1],
        ['title:"acme review"', 1, 1],
      ]);
    });

    it('reports the timesheet as JSON with rounding, billing and unclassified clusters', async () => {
      const report = await http.agents.alice.ok('get_timesheet', { ...week, format: 'json' });

      expect(report.groups).toEqual([
        {
          key: acme,
          label: 'Acme',
          raw_minutes: 155,
          rounded_minutes: 165,
          billable_minutes: 165,
          events: 3,
        },
        {
          key: 'unclassified',
          label: 'Unclassified',
          raw_minutes: 90,
          rounded_minutes: 90,
          billable_minutes: 0,
          events: 1,
        },
      ]);
      expect(report.totals).toEqual({
        raw_minutes: 245,
        rounded_minutes: 255,
        billable_minutes: 165,
        events: 4,
      });
      expect(report.unclassified).toMatchObject({
        minutes: 90,
        clusters: [{ label: 'deep work', events: 1 }],
      });
    });

    it('renders the same timesheet as TOON and as CSV text, with no structuredContent beside either', async () => {
      const toon = await http.agents.alice.call('get_timesheet', { ...week, format: 'toon' });
      const csv = await http.agents.alice.call('get_timesheet', { ...week, format: 'csv' });

      const toonText = (toon.content[0] as { text: string }).text;
      expect(toonText).toMatch(
        /^groups\[2\]\{key,label,raw_minutes,rounded_minutes,billable_minutes,events\}:$/m,
      );
      expect(toonText).toContain(`${acme},Acme,155,165,165,3`);
      expect((csv.content[0] as { text: string }).text).toBe(
        'key,label,raw_minutes,rounded_minutes,billable_minutes,events\r\n' +
          `${acme},Acme,155,165,165,3\r\n` +
          'unclassified,Unclassified,90,90,0,1\r\n' +
          'total,Total,245,255,165,4\r\n',
      );
      expect([csv.structuredContent, toon.structuredContent]).toEqual([undefined, undefined]);
    });
  });

  describe('drafts, suggestions and edits', () => {
    it('drafts a rule from a description and saves it only when confirmed by proposal_id', async () => {
      const draft = await http.agents.alice.ok<{ query: string; proposal_id: string; saved: boolean }>(
        'create_rule_from_description',
        { description: 'meetings with people from Acme on Mondays', project_id: acme },
      );
      const before = await http.agents.alice.ok<{ count: number }>('list_rules', {});

      const { rule } = await http.agents.alice.ok<{ rule: Rule }>('create_rule', {
        proposal_id: draft.proposal_id,
      });

      expect(draft).toMatchObject({ query: 'domain:acme.com day-of-week:mon', saved: false });
      expect(rule.query).toBe(draft.query);
      expect((await http.agents.alice.ok<{ count: number }>('list_rules', {})).count).toBe(before.count + 1);
      await http.agents.alice.ok('delete_rule', { rule_id: rule.rule_id, if_version: 1 });
    });

    it('suggests rules from unclassified time', async () => {
      const { suggestions } = await http.agents.alice.ok<{ suggestions: { kind: string; query: string }[] }>(
        'get_rule_suggestions',
        { format: 'json' },
      );

      expect(suggestions).toContainEqual(
        expect.objectContaining({ kind: 'domain', query: 'domain:globex.com', events: 2, minutes: 60 }),
      );
    });

    it('refuses a project update from a stale version, and archives with the current one', async () => {
      const stale = await http.agents.alice.call('update_project', {
        project_id: acme,
        name: 'Acme Corp',
        if_version: 7,
      });
      const { project } = await http.agents.alice.ok<{ project: { version: number; archived: boolean } }>(
        'update_project',
        { project_id: acme, name: 'Acme Corp', clear: ['rounding'], if_version: 1 },
      );

      expect(errorOf(stale).code).toBe('STALE_WRITE');
      expect(project).toMatchObject({ version: 2, archived: false });
      expect(project).not.toHaveProperty('rounding');
    });
  });

  describe('wrong queries say what to fix', () => {
    it('INVALID_QUERY carries the position and a caret line', async () => {
      const error = errorOf(
        await http.agents.alice.call('create_rule', { query: 'title:a OR', project_id: acme }),
      );

      expect(error).toMatchObject({ code: 'INVALID_QUERY', position: 8, caret: 'title:a OR\n        ^' });
    });

    it('INVALID_PROPERTY suggests the property meant and lists the valid ones', async () => {
      const error = errorOf(await http.agents.alice.call('preview_rule', { query: 'subject:standup' }));

      expect(error).toMatchObject({ code: 'INVALID_PROPERTY', suggestion: 'title', position: 0 });
      expect(error.message).toContain("Did you mean 'title'?");
      expect(error.valid_properties).toContain('time-of-day');
    });

    it('INVALID_VALUE names the allowed values, on the structured condition at fault', async () => {
      const error = errorOf(
        await http.agents.alice.call('create_classification_rule', {
          project_id: acme,
          conditions: [
            { property: 'domain', value: 'acme.com' },
            { property: 'day-of-week', value: 'funday' },
          ],
        }),
      );

      expect(error).toMatchObject({ code: 'INVALID_VALUE', field: 'conditions[1]', property: 'day-of-week' });
      expect(error.allowed_values).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
    });
  });
});
