import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient, okTool } from '../../support/mcp-client.js';
import { guests, type RulesHttp, startRulesHttp } from './rules-http.js';

/**
 * A rule classifies only the events of calendars its author may read (core/rules/rule-reach.ts).
 * Any key may create a project and save rules in it; a key with no grant at all must not outrank
 * the owner's rule and take their events out of their project — while a key that may read the
 * calendar classifies its events as any rule does.
 */
describe('a rule saved by a key with no grants', () => {
  let http: RulesHttp;
  let acme: string;
  const week = { start: '2026-11-16T00:00:00+01:00', end: '2026-11-23T00:00:00+01:00' };

  beforeAll(async () => {
    http = await startRulesHttp();
    await http.addEvent('Acme sync', '2026-11-16T09:00:00', 60, { attendees: guests('bob@acme.com') });
    const { alice } = http.agents;
    acme = (
      await alice.ok<{ project: { project_id: string } }>('create_project', { name: 'Acme', billable: true })
    ).project.project_id;
    await alice.ok('create_rule', { query: 'domain:acme.com', project_id: acme });
  });

  let closeClient = async () => {};
  let closeStranger = async () => {};

  afterAll(async () => {
    await closeClient();
    await closeStranger();
    await http?.close();
  });

  const acmeMinutes = async () => {
    const report = await http.agents.alice.ok<{ groups: { key: string; raw_minutes: number }[] }>(
      'get_timesheet',
      {
        ...week,
        project_ids: [acme],
        format: 'json',
      },
    );
    return report.groups.find((g) => g.key === acme)?.raw_minutes ?? 0;
  };

  it("does not change alice's timesheet", async () => {
    expect(await acmeMinutes()).toBe(60);
    // A brand-new key: no grant on the calendar, none on Acme.
    // Served on its own port over the same runtime (http.close() closes the runtime itself).
    const { startHttpServer } = await import('../../../lambdas/runtime/node-http-server.js');
    const { routeHttpRequest } = await import('../../../lambdas/mcp/http/route-http-request.js');
    const server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      handle: (request) => routeHttpRequest(request, http.runtime),
      logger: http.runtime.logger,
    });
    closeStranger = () => server.close();
    const { token } = await http.runtime.newKey('stranger');
    const stranger = await connectHttpClient(`${server.url}/mcp`, undefined, {
      authorization: `Bearer ${token}`,
    });
    closeClient = () => stranger.close();
    const own = (await okTool(stranger, 'create_project', { name: 'Decoy' })).project.project_id as string;
    await okTool(stranger, 'create_rule', { query: 'domain:acme.com', project_id: own, weight: 10 });

    expect(await acmeMinutes()).toBe(60);
  });

  it('classifies, once its author may read the calendar', async () => {
    const decoy = await http.agents.bob.ok<{ project: { project_id: string } }>('create_project', {
      name: 'Bob',
    });
    await http.agents.bob.ok('create_rule', {
      query: 'domain:acme.com',
      project_id: decoy.project.project_id,
      weight: 10,
    });

    // bob may read the calendar: his heavier rule now decides, as any rule would.
    expect(await acmeMinutes()).toBe(0);
  });
});
