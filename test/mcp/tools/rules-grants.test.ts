import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../support/mcp-client.js';
import { guests, type RulesHttp, startRulesHttp } from './rules-http.js';

/**
 * Projects are grantable resources: a key sees a project's rules and time only with read on it,
 * and changes them (or classifies into it) only with write. Over HTTP with the real Client; bob
 * may read the calendar but holds no grant on alice's project until the owner gives one.
 */
describe('rules tools and per-project grants', () => {
  let http: RulesHttp;
  let acme: string;
  let ruleId: string;
  let eventId: string;
  const week = { start: '2026-11-16T00:00:00+01:00', end: '2026-11-23T00:00:00+01:00' };

  beforeAll(async () => {
    http = await startRulesHttp();
    eventId = await http.addEvent('Acme sync', '2026-11-16T09:00:00', 60, {
      attendees: guests('bob@acme.com'),
    });
    const { alice } = http.agents;
    acme = (
      await alice.ok<{ project: { project_id: string } }>('create_project', { name: 'Acme', billable: true })
    ).project.project_id;
    ruleId = (
      await alice.ok<{ rule: { rule_id: string } }>('create_rule', {
        query: 'domain:acme.com',
        project_id: acme,
      })
    ).rule.rule_id;
  });

  afterAll(async () => {
    await http?.close();
  });

  const bobCalls = () =>
    ({
      read: [
        ['list_rules', { project_id: acme }],
        ['get_timesheet', { ...week, project_ids: [acme] }],
        ['preview_rule', { query: 'title:sync', project_id: acme }],
        ['create_rule_from_description', { description: 'meetings with Acme', project_id: acme }],
      ],
      write: [
        ['classify_event', { calendar_id: http.calendarId, event_id: eventId, project_id: acme }],
        ['create_rule', { query: 'title:sync', project_id: acme }],
        ['create_classification_rule', { project_id: acme, conditions: [{ property: 'title', value: 'x' }] }],
        ['update_rule', { rule_id: ruleId, weight: 9 }],
        ['delete_rule', { rule_id: ruleId }],
        ['update_project', { project_id: acme, name: 'Mine now' }],
      ],
    }) as const;

  describe('a key with no grant on the project', () => {
    it('is refused every read and every change of it: FORBIDDEN naming the project it named, NOT_FOUND for a rule it cannot see', async () => {
      const { read, write } = bobCalls();
      // A rule is found by its own id: one of a project the key cannot read answers as a missing one.
      const byRuleId = ['update_rule', 'delete_rule'];
      for (const [name, args] of [...read, ...write]) {
        const error = errorOf(await http.agents.bob.call(name, args));
        expect(error, name).toMatchObject(
          byRuleId.includes(name)
            ? { code: 'NOT_FOUND', rule_id: ruleId }
            : {
                code: 'FORBIDDEN',
                resource_kind: 'project',
                resource_id: acme,
                missing_right: write.some(([n]) => n === name) ? 'write' : 'read',
              },
        );
      }
      // Nothing changed: the rule still decides the event, at its first version.
      const explained = await http.agents.alice.ok('explain_classification', {
        calendar_id: http.calendarId,
        event_id: eventId,
      });
      expect(explained).toMatchObject({ decided_by: 'rule', winner: { rule_id: ruleId, weight: 1 } });
    });

    it('does not see it listed, nor its rules', async () => {
      expect(await http.agents.bob.ok('list_projects', {})).toEqual({ projects: [], count: 0 });
      expect(await http.agents.bob.ok('list_rules', {})).toMatchObject({ rules: [], count: 0 });
    });

    it('sees its time as one "other" line, never billable, and its rule hidden in explanations', async () => {
      const report = await http.agents.bob.ok('get_timesheet', { ...week, format: 'json' });
      const explained = await http.agents.bob.ok<{
        project_id: string;
        winner: { query: string; rule_id: string };
      }>('explain_classification', { calendar_id: http.calendarId, event_id: eventId });

      expect(report.groups).toEqual([
        {
          key: 'other',
          label: 'Other projects (no read access)',
          raw_minutes: 60,
          rounded_minutes: 60,
          billable_minutes: 0,
          events: 1,
        },
      ]);
      expect(explained.project_id).toBe('other');
      expect(explained.winner.query).not.toContain('acme');
      expect(explained.winner.rule_id).not.toBe(ruleId);
    });

    it('keeps its own projects to itself', async () => {
      await http.agents.bob.ok('create_project', { name: 'Bob side project' });

      const alice = await http.agents.alice.ok<{ projects: { name: string; access: string }[] }>(
        'list_projects',
        {},
      );
      const bob = await http.agents.bob.ok<{ projects: { name: string; access: string }[] }>(
        'list_projects',
        {},
      );

      expect(alice.projects.map((p) => [p.name, p.access])).toEqual([['Acme', 'write']]);
      expect(bob.projects.map((p) => [p.name, p.access])).toEqual([['Bob side project', 'write']]);
    });
    it('explains why its own rule lost without naming the unreadable winner', async () => {
      const { projects } = await http.agents.bob.ok<{ projects: { project_id: string }[] }>(
        'list_projects',
        {},
      );
      const { rule } = await http.agents.bob.ok<{ rule: { rule_id: string } }>('create_rule', {
        query: 'title:sync',
        project_id: projects[0]!.project_id,
        weight: 0,
      });

      const explained = await http.agents.bob.ok<{ others: { rule_id: string; lost_because: string }[] }>(
        'explain_classification',
        { calendar_id: http.calendarId, event_id: eventId },
      );

      expect(explained.others).toEqual([
        expect.objectContaining({
          rule_id: rule.rule_id,
          lost_because: 'outranked by a pin or rule of a project you cannot read',
        }),
      ]);
      expect(JSON.stringify(explained)).not.toContain(ruleId);
      expect(JSON.stringify(explained)).not.toContain(acme);

      const listed = await http.agents.bob.ok<{
        rules: { rule_id: string; warnings: { code: string; message: string }[] }[];
      }>('list_rules', { format: 'json' });
      const mine = listed.rules.find((listedRule) => listedRule.rule_id === rule.rule_id);
      expect(mine?.warnings).toEqual([
        expect.objectContaining({
          code: 'ALWAYS_OUTRANKED',
          message: expect.stringContaining('1 of projects you cannot read'),
        }),
      ]);
      expect(JSON.stringify(listed)).not.toContain(ruleId);
    });
  });

  describe('a pin into a project the caller may not write', () => {
    it('is not replaced by a key that may read the calendar: moving the event out needs write on that project', async () => {
      const { alice, bob } = http.agents;
      await alice.ok('classify_event', { calendar_id: http.calendarId, event_id: eventId, project_id: acme });
      const own = (await bob.ok<{ project: { project_id: string } }>('create_project', { name: 'Side' }))
        .project.project_id;

      const refused = errorOf(
        await bob.call('classify_event', {
          calendar_id: http.calendarId,
          event_id: eventId,
          project_id: own,
        }),
      );

      expect(refused).toMatchObject({ code: 'FORBIDDEN', missing_right: 'write' });
      expect(refused.message).toContain('a project you cannot read');
      expect(refused.message).not.toContain(acme);
      expect(
        await alice.ok('explain_classification', { calendar_id: http.calendarId, event_id: eventId }),
      ).toMatchObject({ decided_by: 'pin', project_id: acme });
    });

    it('is moved by a key that may write both projects', async () => {
      const { alice } = http.agents;
      const other = (await alice.ok<{ project: { project_id: string } }>('create_project', { name: 'Other' }))
        .project.project_id;

      await alice.ok('classify_event', {
        calendar_id: http.calendarId,
        event_id: eventId,
        project_id: other,
      });
      const moved = await alice.ok('explain_classification', {
        calendar_id: http.calendarId,
        event_id: eventId,
      });
      await alice.ok('classify_event', { calendar_id: http.calendarId, event_id: eventId, project_id: acme });

      expect(moved).toMatchObject({ decided_by: 'pin', project_id: other });
    });
  });

  describe('a key granted read, then write', () => {
    it('with read: sees the project, its rules and its time, and still may not change or classify', async () => {
      await http.runtime.access.setGrant(http.agents.bob.keyId, { kind: 'project', id: acme }, 'read');

      const projects = await http.agents.bob.ok<{ projects: { project_id: string; access: string }[] }>(
        'list_projects',
        {},
      );
      const rules = await http.agents.bob.ok<{ count: number }>('list_rules', { project_id: acme });
      const report = await http.agents.bob.ok('get_timesheet', {
        ...week,
        project_ids: [acme],
        format: 'json',
      });

      expect(projects.projects).toContainEqual(expect.objectContaining({ project_id: acme, access: 'read' }));
      expect(rules.count).toBe(1);
      expect(report.groups).toMatchObject([
        { key: acme, label: 'Acme', raw_minutes: 60, billable_minutes: 60 },
      ]);
      for (const [name, args] of bobCalls().write)
        expect(errorOf(await http.agents.bob.call(name, args)), name).toMatchObject({
          code: 'FORBIDDEN',
          missing_right: 'write',
        });
    });

    it('with write: classifies an event into it by hand', async () => {
      await http.runtime.access.setGrant(http.agents.bob.keyId, { kind: 'project', id: acme }, 'write');

      await http.agents.bob.ok('classify_event', {
        calendar_id: http.calendarId,
        event_id: eventId,
        project_id: acme,
      });

      expect(
        await http.agents.alice.ok('explain_classification', {
          calendar_id: http.calendarId,
          event_id: eventId,
        }),
      ).toMatchObject({ decided_by: 'pin', project_id: acme });
    });
  });
});
