import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource } from '../../../lambdas/core/access/rights.js';
import { scopeForToolsets } from '../../../lambdas/core/auth/toolset-scopes.js';
import { TOOLSET_NAMES } from '../../../lambdas/mcp/tools/index.js';
import { ERAS, useEveryCapability } from '../../mcp/protocol-eras.js';
import { connectHttpClient, connectInMemory, okTool } from '../../support/mcp-client.js';
import { startInspector } from '../../support/mcp-inspector.js';
import { authorizeOverHttp, redeemCode } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';
import { NODE_22, needs } from '../../support/system-parts.js';

/*
 * Clients Meridian's code has no part in, each with a token from one sign-in (the real pages,
 * over HTTP): the SDK's Client in every protocol era, and the MCP Inspector CLI in both. Alice
 * may write calendars Work and Personal and consented read on Work only: what each client sees
 * shows it runs as that consent.
 */

const ALICE = { name: 'alice', password: 'correct horse battery staple' };

let served: ServedSignIn;
let accessToken: string;
let work: string;
let personal: string;

beforeAll(async () => {
  served = await serveWithSignIn();
  const owner = await connectInMemory(served.runtime);
  work = (await okTool(owner, 'create_calendar', { summary: 'Work' })).calendar_id;
  personal = (await okTool(owner, 'create_calendar', { summary: 'Personal' })).calendar_id;
  await owner.close();
  await served.users.add(ALICE.name, ALICE.password);
  await served.users.setGrant(ALICE.name, calendarResource(work), 'write');
  await served.users.setGrant(ALICE.name, calendarResource(personal), 'write');

  const flow = await authorizeOverHttp(served.url, {
    person: ALICE,
    scope: scopeForToolsets(TOOLSET_NAMES),
    resource: served.mcpUrl,
    consent: {
      toolset: [...TOOLSET_NAMES],
      [`grant:${work}`]: 'read',
      [`grant:${personal}`]: 'none',
      approve: 'yes',
    },
  });
  const tokens = await redeemCode(served.url, flow);
  accessToken = tokens.access_token;
}, 60_000);

afterAll(async () => {
  await served?.close();
});

/** The calendars a listing shows, as id and whether the caller may write. */
const visible = (calendars: { id: string; can_write: boolean }[]) =>
  calendars.map(({ id, can_write }) => ({ id, can_write }));

describe('the SDK client with a token', () => {
  it.each(ERAS)('uses every capability in $label, within the consent', async ({ era, version }) => {
    const client = await connectHttpClient(
      served.mcpUrl,
      undefined,
      { authorization: `Bearer ${accessToken}` },
      era,
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const before = visible((await okTool(client, 'list_calendars', {})).calendars);
      await useEveryCapability(client, `token ${version}`);

      // Calendars an earlier era made are the consent's own; Personal is never seen.
      expect(before).toContainEqual({ id: work, can_write: false });
      expect(before.map(({ id }) => id)).not.toContain(personal);
    } finally {
      await client.close();
    }
  });
});

describe('the MCP Inspector CLI with a token', needs(NODE_22), () => {
  it.concurrent.each(['legacy', 'modern'] as const)(
    'lists the tools and calls one in the %s era, within the consent',
    async (era) => {
      const inspector = await startInspector({ url: served.mcpUrl, token: accessToken }, era);
      try {
        const [listing, calendars] = await Promise.all([
          inspector.request({ method: 'tools/list' }),
          inspector.callTool('list_calendars', { format: 'json' }),
        ]);

        expect(listing.tools.map((tool: { name: string }) => tool.name)).toEqual(
          expect.arrayContaining([
            'compute_duration',
            'list_calendars',
            'book_slot',
            'list_projects',
            'search_context',
          ]),
        );
        expect(visible(calendars.calendars)).toContainEqual({ id: work, can_write: false });
        expect(calendars.calendars.map((c: { id: string }) => c.id)).not.toContain(personal);
      } finally {
        await inspector.close();
      }
    },
    180_000,
  );
});
