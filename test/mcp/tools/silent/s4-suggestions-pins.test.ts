import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../../support/mcp-client.js';
import { type RulesHttp, startRulesHttp } from '../rules-http.js';

interface Suggestion {
  kind: string;
  query: string;
  reason: string;
  events: number;
  minutes: number;
  project_id?: string;
  weight?: number;
}

/** Issue 22 S4: what get_rule_suggestions says a query covers is what saving it would change. */
describe('get_rule_suggestions with pinned events', () => {
  let http: RulesHttp;
  let acme: string;
  let internal: string;
  let pinnedId: string;
  const window = { start: '2026-11-16T00:00:00Z', end: '2026-11-21T00:00:00Z' };

  beforeAll(async () => {
    http = await startRulesHttp();
    const { alice } = http.agents;
    const project = async (name: string) =>
      (await alice.ok<{ project: { project_id: string } }>('create_project', { name })).project.project_id;
    acme = await project('Acme');
    internal = await project('Internal');
    await alice.ok('create_rule', { project_id: acme, query: 'title:acme' });
    await http.addEvent('Acme workshop', '2026-11-16T09:00:00', 60);
    pinnedId = await http.addEvent('Acme workshop', '2026-11-18T09:00:00', 120);
    await alice.ok('classify_event', {
      calendar_id: http.calendarId,
      event_id: pinnedId,
      project_id: internal,
    });
  });
  afterAll(() => http?.close());

  it('a correction covers what preview_rule of its query, project and weight would move, and says the unpinned one moves', async () => {
    const { alice } = http.agents;
    const { suggestions } = await alice.ok<{ suggestions: Suggestion[] }>('get_rule_suggestions', {
      ...window,
      format: 'json',
    });
    const correction = suggestions.find((s) => s.kind === 'correction');
    expect(correction).toMatchObject({ query: 'title:"Acme workshop"', project_id: internal });

    const preview = await alice.ok<ToolOutput>('preview_rule', {
      query: correction!.query,
      project_id: correction!.project_id,
      weight: correction!.weight,
      ...window,
      format: 'json',
    });
    const moved = preview.change.moves as { events: number; minutes: number }[];

    expect(preview.change.events_moved).toBe(1); // the workshop that is not pinned, out of Acme
    expect([correction!.events, correction!.minutes]).toEqual([
      preview.change.events_moved,
      moved.reduce((sum, m) => sum + m.minutes, 0),
    ]);
    expect(correction!.reason).toMatch(/not pinned/);
  });
});
