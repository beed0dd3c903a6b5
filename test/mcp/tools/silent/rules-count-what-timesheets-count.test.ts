import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../../lambdas/core/access/rights.js';
import type { EventDraft } from '../../../../lambdas/core/calendar/event.js';
import { errorOf, type ToolOutput } from '../../../support/mcp-client.js';
import { NEW_YORK, type SilentWorld, startSilentWorld } from './silent-world.js';

interface Suggestion {
  kind: string;
  query: string;
  events: number;
  alternatives?: string[];
}

const attendees = (...emails: string[]): EventDraft['attendees'] =>
  emails.map((email) => ({ email, response_status: 'accepted' as const }));

/**
 * Issue 22, build item 3 and the rules texts it names: a `status:` property, windows that reach
 * upcoming work and say so, suggestions that merge, drafts that never drop a word, and
 * preview_rule in a zone the caller names. Monday 23 November 2026, noon UTC.
 */
describe('rules count what timesheets count (issue 22, item 3)', () => {
  let world: SilentWorld;
  let project: string;

  beforeAll(async () => {
    world = await startSilentWorld('2026-11-23T12:00:00Z');
    const add = (summary: string, start: string, minutes: number, extra: Partial<EventDraft> = {}) => {
      const end = new Date(Date.parse(`${start}Z`) + minutes * 60_000).toISOString().slice(0, 19);
      return world.runtime.calendars.createEvent(LOCAL_OWNER, world.calendars.ny, {
        summary,
        start: { date_time: start, time_zone: NEW_YORK },
        end: { date_time: end, time_zone: NEW_YORK },
        ...extra,
      });
    };
    // Past week: a daily standup series (one occurrence is pinned below) and a tentative review.
    await add('Team standup', '2026-11-09T09:00:00', 15, { recurrence: ['RRULE:FREQ=DAILY;COUNT=10'] });
    await add('Budget review', '2026-11-10T14:00:00', 60, { status: 'tentative' });
    await add('Budget offsite', '2026-11-11T14:00:00', 60, { status: 'cancelled' });
    // Upcoming only: Globex (a Friday kickoff and a Monday call) and Initech.
    await add('Globex kickoff', '2026-12-04T10:00:00', 60, { attendees: attendees('carol@globex.com') });
    await add('Globex call', '2026-12-07T10:00:00', 30, { attendees: attendees('carol@globex.com') });
    await add('Intro', '2026-11-30T11:00:00', 30, { attendees: attendees('dan@initech.com') });
    await add('Follow-up', '2026-12-01T11:00:00', 30, { attendees: attendees('dan@initech.com') });
    project = (await world.ok<{ project: { project_id: string } }>('create_project', { name: 'Globex' }))
      .project.project_id;
  });
  afterAll(() => world?.close());

  describe('a status: property', () => {
    it('takes -status:cancelled instead of suggesting response, and status:tentative matches the tentative event', async () => {
      const window = { start: '2026-11-09T00:00:00-05:00', end: '2026-11-14T00:00:00-05:00' };
      const tentative = await world.ok('preview_rule', {
        query: 'status:tentative',
        ...window,
        format: 'json',
      });
      const notCancelled = await world.ok('preview_rule', {
        query: 'title:budget -status:cancelled',
        ...window,
        format: 'json',
      });

      expect(tentative.matches.map((m: { summary: string }) => m.summary)).toEqual(['Budget review']);
      expect(notCancelled).toMatchObject({ query: 'title:budget -status:cancelled', not_counted: 0 });
    });

    it('refuses a value it does not take with the three it does', async () => {
      const refused = errorOf(await world.call('preview_rule', { query: 'status:maybe' }));

      expect(refused.code).toBe('INVALID_VALUE');
      expect(refused.allowed_values).toEqual(['confirmed', 'tentative', 'cancelled']);
    });

    it("has its own row in the syntax resource, which says response is the owner's RSVP", async () => {
      const [content] = (await world.client.readResource({ uri: 'timesheet://docs/rules-syntax' })).contents;
      const text = (content as { text: string }).text;

      expect(text).toMatch(/\| `status` \| `confirmed`, `tentative`, `cancelled` \|/);
      expect(text).toMatch(/`response` is the calendar owner's own RSVP/);
      expect(text).not.toMatch(/`status` → `response`/);
    });
  });

  describe('default windows reach upcoming work and are said', () => {
    it('list_rules counts a rule matching only upcoming events, not NEVER_MATCHED', async () => {
      const { rule } = await world.ok<{ rule: { rule_id: string } }>('create_rule', {
        project_id: project,
        query: 'domain:globex.com',
      });
      const listed = await world.ok<{ rules: ToolOutput[]; window: { start: string; end: string } }>(
        'list_rules',
        { format: 'json' },
      );

      const globex = listed.rules.find((r) => r.rule_id === rule.rule_id);
      expect(globex).toMatchObject({ events_matched: 2, events_upcoming: 2, warnings: [] });
      expect(listed.window).toEqual({ start: '2026-10-24T12:00:00.000Z', end: '2026-12-23T12:00:00.000Z' });
    });

    it('preview_rule without a window matches upcoming events and names the window', async () => {
      const preview = await world.ok('preview_rule', { query: 'domain:initech.com', format: 'json' });

      expect(preview).toMatchObject({ total_matched: 2, minutes_matched: 60 });
      expect(preview.window.end).toBe('2026-12-23T12:00:00.000Z');
    });

    it('get_rule_suggestions without a window suggests from upcoming events and names the window', async () => {
      const answer = await world.ok<{ suggestions: Suggestion[]; window: { end: string } }>(
        'get_rule_suggestions',
        { format: 'json' },
      );

      expect(answer.suggestions.map((s) => s.query)).toContain('domain:initech.com');
      expect(answer.window.end).toBe('2026-12-23T12:00:00.000Z');
    });
  });

  describe('suggestions', () => {
    const window = { start: '2026-11-09T00:00:00-05:00', end: '2026-11-14T00:00:00-05:00' };

    it('merge queries that cover the same events into one, naming the others, and honour pins in the window asked', async () => {
      const standups = await world.ok('preview_rule', { query: 'title:standup', ...window, format: 'json' });
      await world.ok('classify_event', {
        calendar_id: world.calendars.ny,
        event_id: standups.matches[0].event_id,
        project_id: project,
      });

      const { suggestions } = await world.ok<{ suggestions: Suggestion[] }>('get_rule_suggestions', {
        ...window,
        format: 'json',
      });

      const aboutStandups = suggestions.filter((s) => /standup|team/i.test(s.query));
      expect(aboutStandups).toHaveLength(1);
      // Five occurrences in the window, one pinned: four left to classify.
      expect(aboutStandups[0]).toMatchObject({ query: 'title:"Team standup" recurring:yes', events: 4 });
      expect(aboutStandups[0]!.alternatives).toEqual(
        expect.arrayContaining(['title:team', 'title:standup', 'title:"team standup"']),
      );
    });
  });

  describe('create_rule_from_description', () => {
    it('reads attendee domains of upcoming events: "meetings with Globex on Fridays"', async () => {
      const draft = await world.ok('create_rule_from_description', {
        description: 'meetings with Globex on Fridays',
      });

      expect(draft).toMatchObject({ query: 'domain:globex.com day-of-week:fri', not_understood: [] });
      expect(draft.preview).toMatchObject({ total_matched: 1, minutes_matched: 60 });
    });

    it('reads title words: "kickoffs" is title:kickoff', async () => {
      const draft = await world.ok('create_rule_from_description', { description: 'kickoffs on Fridays' });

      expect(draft.query).toBe('title:kickoff day-of-week:fri');
    });

    it('keeps a word it cannot place in the query and says so, rather than matching every Friday', async () => {
      const draft = await world.ok('create_rule_from_description', {
        description: 'meetings with Umbrella on Fridays',
      });

      expect(draft).toMatchObject({ query: 'day-of-week:fri text:umbrella', not_understood: ['umbrella'] });
      expect(draft.note).toMatch(/'umbrella': no attendee domain, person, calendar name or title word/);
      expect(draft.preview).toMatchObject({ total_matched: 0 });
    });

    it('says in its description what it reads and over which days', async () => {
      const { tools } = await world.client.listTools();
      const description = tools.find((t) => t.name === 'create_rule_from_description')!.description;

      expect(description).toMatch(/title words/);
      expect(description).toMatch(/90 days back to 90 ahead/);
    });
  });

  describe('preview_rule with a timezone', () => {
    it('answers match times as local times there, and names the zone', async () => {
      const preview = await world.ok('preview_rule', {
        query: 'title:kickoff',
        timezone: 'Europe/Berlin',
        format: 'json',
      });

      expect(preview.time_zone).toBe('Europe/Berlin');
      expect(preview.matches[0]).toMatchObject({
        start: '2026-12-04T16:00:00+01:00',
        end: '2026-12-04T17:00:00+01:00',
      });
    });

    it('refuses a zone it does not know with INVALID_TIMEZONE', async () => {
      const refused = errorOf(
        await world.call('preview_rule', { query: 'title:kickoff', timezone: 'Europe/Berlinn' }),
      );

      expect(refused.code).toBe('INVALID_TIMEZONE');
    });
  });
});
