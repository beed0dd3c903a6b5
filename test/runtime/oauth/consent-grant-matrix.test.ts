import { type Client, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource } from '../../../lambdas/core/access/rights.js';
import { isConsentOf } from '../../../lambdas/core/auth/consent-label.js';
import { scopeForToolsets } from '../../../lambdas/core/auth/toolset-scopes.js';
import { projectResource } from '../../../lambdas/core/rules/project-access.js';
import { TOOLSET_NAMES } from '../../../lambdas/mcp/tools/index.js';
import {
  expectedOutcome,
  expectMatrixCoversEveryTool,
  GRANT_MATRIX,
  type MatrixGrants,
  type MatrixIds,
  type MatrixRow,
  toolsetOf,
} from '../../mcp/grant-matrix.js';
import { callTool, connectHttpClient, connectInMemory, errorOf, okTool } from '../../support/mcp-client.js';
import { authorizeOverHttp, redeemCode } from '../../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../../support/served-sign-in.js';

/*
 * A consent narrower than the person's rights, at every tool of every toolset. Alice may write
 * calendar A and project P; she signs in (the real pages, over HTTP) and consents read on A,
 * nothing on P, and every toolset but `time`. The token must answer each tool of the grant
 * matrix (test/mcp/grant-matrix.ts) as the matrix expects for those grants, and exactly as an API
 * key holding the same grants does; a toolset she left out is refused at the connection (403
 * insufficient_scope naming every scope the connection needs).
 */

const ALICE = { name: 'alice', password: 'correct horse battery staple' };
const LEFT_OUT = 'time';
const CONSENTED_TOOLSETS = TOOLSET_NAMES.filter((name) => name !== LEFT_OUT);
const CONSENT: MatrixGrants = { calendar: 'read', project: 'none', toolsets: CONSENTED_TOOLSETS };

let served: ServedSignIn;
let ids: MatrixIds;
let accessToken: string;
/** Each caller, with the id of the API key behind it (a consent is one: docs/adr/0013). */
let viaToken: { client: Client; keyId: string };
let viaKey: { client: Client; keyId: string };

/** What the owner makes before anyone signs in: A with an event, P with a rule and memory. */
async function plantResources(): Promise<MatrixIds> {
  const owner = await connectInMemory(served.runtime);
  const calendar = (await okTool(owner, 'create_calendar', { summary: 'A' })).calendar_id;
  const event = (
    await okTool(owner, 'create_event', {
      calendar_id: calendar,
      summary: 'Planning',
      start: '2026-05-04T09:00:00Z',
      end: '2026-05-04T10:00:00Z',
    })
  ).event_id;
  const project = (await okTool(owner, 'create_project', { name: 'P' })).project.project_id;
  const rule = (await okTool(owner, 'create_rule', { project_id: project, query: 'title:planning' })).rule
    .rule_id;
  const branch = (await okTool(owner, 'create_branch', { project_id: project, branch_topic: 'Plans' }))
    .branch_id;
  await okTool(owner, 'update_memory', {
    project_id: project,
    branch_id: branch,
    role: 'user',
    content: 'We ship on Friday.',
  });
  const snapshot = (await okTool(owner, 'create_snapshot', { project_id: project })).snapshot_id;
  const session = (
    await okTool(owner, 'suggest_contexts', { project_id: project, current_context: 'shipping' })
  ).session_id;
  await owner.close();
  return { calendar, event, project, rule, branch, snapshot, session };
}

beforeAll(async () => {
  served = await serveWithSignIn();
  ids = await plantResources();
  await served.users.add(ALICE.name, ALICE.password);
  await served.users.setGrant(ALICE.name, calendarResource(ids.calendar), 'write');
  await served.users.setGrant(ALICE.name, projectResource(ids.project), 'write');

  const flow = await authorizeOverHttp(served.url, {
    person: ALICE,
    scope: scopeForToolsets(TOOLSET_NAMES),
    resource: served.mcpUrl,
    consent: {
      toolset: CONSENTED_TOOLSETS,
      [`grant:${ids.calendar}`]: CONSENT.calendar,
      [`grant:project/${ids.project}`]: CONSENT.project,
      approve: 'yes',
    },
  });
  const tokens = await redeemCode(served.url, flow);
  accessToken = tokens.access_token;
  const consent = (await served.runtime.access.listKeys()).find((key) => isConsentOf(key.label, ALICE.name));
  viaToken = {
    client: await connectHttpClient(served.mcpUrl, undefined, { authorization: `Bearer ${accessToken}` }),
    keyId: consent!.key_id,
  };

  // The reference: an API key holding exactly what was consented.
  const key = await served.runtime.newKey('reference', { toolsets: CONSENTED_TOOLSETS });
  await served.runtime.access.setGrant(key.keyId, calendarResource(ids.calendar), CONSENT.calendar);
  viaKey = {
    client: await connectHttpClient(served.mcpUrl, undefined, { authorization: `Bearer ${key.token}` }),
    keyId: key.keyId,
  };
}, 60_000);

afterAll(async () => {
  await viaToken?.client.close();
  await viaKey?.client.close();
  await served?.close();
});

/**
 * How a call ended, and its refusal as text with the caller's own key id replaced (what a
 * successful call made has ids of its own, so only its outcome is compared).
 */
async function outcomeOf(caller: { client: Client; keyId: string }, row: MatrixRow) {
  try {
    const result = await callTool(caller.client, row.tool, row.args(ids));
    if (!result.isError) return { kind: 'ok', answer: 'ok', advice: '' };
    // The advice differs by caller (a key's owner grants more; a person signs in again): compared apart.
    const { message, ...refusal } = errorOf(result);
    const { code, missing_right } = refusal;
    return {
      kind: 'refused',
      code,
      ...(missing_right ? { missing_right } : {}),
      answer: JSON.stringify(refusal).replaceAll(caller.keyId, '<own key>'),
      advice: String(message),
    };
  } catch (error) {
    const notEnabled =
      error instanceof ProtocolError &&
      error.code === ProtocolErrorCode.InvalidParams &&
      /which this connection did not enable/.test(error.message);
    if (!notEnabled) throw error;
    return { kind: 'not enabled', answer: error.message, advice: '' };
  }
}

describe('a token consented less than the person may do', () => {
  it('is checked against a matrix that names every tool', () => {
    expectMatrixCoversEveryTool();
  });

  it('lists A as read-only and P not at all, though Alice may write both', async () => {
    const calendars = (await okTool(viaToken.client, 'list_calendars', {})).calendars;
    const projects = (await okTool(viaToken.client, 'list_projects', {})).projects;

    expect(calendars).toContainEqual(
      expect.objectContaining({ id: ids.calendar, can_read: true, can_write: false }),
    );
    expect(projects.map((p: { project_id: string }) => p.project_id)).not.toContain(ids.project);
  });

  it.each(GRANT_MATRIX.map((row) => [row.tool, row] as const))(
    '%s answers as the grant matrix expects, and as an API key with the same grants',
    async (_tool, row) => {
      const byKey = await outcomeOf(viaKey, row);
      const byToken = await outcomeOf(viaToken, row);

      const { answer, advice, ...kind } = byToken;
      expect(kind, answer).toEqual(expectedOutcome(row, CONSENT));
      expect(answer).toBe(byKey.answer);
      // A missing right tells the person to sign in again, never a command for a key nobody holds.
      if (kind.kind === 'refused' && 'missing_right' in kind) {
        expect(advice).toMatch(/Sign in again/);
        expect(advice).not.toContain('grants set');
      }
    },
  );

  it.each(GRANT_MATRIX.filter((row) => toolsetOf(row.tool) === LEFT_OUT).map((row) => row.tool))(
    '%s, in a toolset left out, is refused at the connection: 403 insufficient_scope naming every scope needed',
    async (tool) => {
      const response = await fetch(`${served.mcpUrl}?toolsets=${LEFT_OUT},calendar`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: tool, arguments: {} },
        }),
      });

      expect(response.status).toBe(403);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain(`scope="${scopeForToolsets([LEFT_OUT, 'calendar'])}"`);
      expect(challenge).toContain(
        `resource_metadata="${served.url}/.well-known/oauth-protected-resource/mcp"`,
      );
    },
  );
});
