import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { scopeForToolsets } from '../../../lambdas/core/auth/toolset-scopes.js';
import { projectResource } from '../../../lambdas/core/rules/project-access.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { authorizeOverHttp, redeemCode } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';

/**
 * A sign-in's toolsets bound what its token reaches: prompts/get and resources/read refuse what a
 * toolset the connection did not enable holds, and completion/complete lists no calendar id or
 * project name to a token consented `time` only (completions.ts), though its grants allow reading
 * them.
 */
const ALICE = { name: 'alice', password: 'correct horse battery staple' };

describe('completion/complete for a token consented the time toolset only', () => {
  let served: ServedSignIn;
  let client: Client;
  let calendarId: string;

  beforeAll(async () => {
    served = await serveWithSignIn();
    calendarId = (await served.runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Board' })).id;
    const project = await served.runtime.rules.createProject(LOCAL_OWNER, { name: 'Merger Falcon' });
    await served.users.add(ALICE.name, ALICE.password);
    await served.users.setGrant(ALICE.name, calendarResource(calendarId), 'read');
    await served.users.setGrant(ALICE.name, projectResource(project.project_id), 'read');
    const flow = await authorizeOverHttp(served.url, {
      person: ALICE,
      scope: scopeForToolsets(['time']),
      resource: served.mcpUrl,
      consent: {
        toolset: ['time'],
        [`grant:${calendarId}`]: 'read',
        [`grant:project/${project.project_id}`]: 'read',
        approve: 'yes',
      },
    });
    const { access_token } = await redeemCode(served.url, flow);
    client = await connectHttpClient(served.mcpUrl, undefined, { authorization: `Bearer ${access_token}` });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it('refuses the rules toolset prompt that names projects (the toolset is off)', async () => {
    await expect(client.getPrompt({ name: 'weekly-timesheet', arguments: {} })).rejects.toThrow(
      /did not enable/,
    );
  });

  it.each([
    ['calendar_id', 'calendar'],
    ['project', 'rules'],
  ])('suggests no %s values from the %s toolset it was not consented', async (name) => {
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'weekly-timesheet' },
      argument: { name, value: '' },
    });

    expect(completion.values).toEqual([]);
  });
});
