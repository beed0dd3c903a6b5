import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { type FakeGraph, startFakeGraph } from '../support/fake-graph.js';
import { callTool, connectHttpClient, errorOf, okTool, type ToolOutput } from '../support/mcp-client.js';
import { needs, OPENSSL } from '../support/system-parts.js';

type Json = ToolOutput;

/**
 * Outlook end to end: `meridian connect outlook` signs in with the device-code flow against the
 * fake Microsoft identity platform (the test plays the person approving the code), a running
 * `serve` reaches the fake Graph, and an agent whose key was granted the Outlook calendar works
 * with it over MCP. One server and one fake for the file.
 */
describe('Outlook calendars over HTTP', { timeout: 120_000, ...needs(OPENSSL) }, () => {
  let dataDir: string;
  let graph: FakeGraph;
  let server: Awaited<ReturnType<typeof startServe>>;
  let agent: Client;
  let keyId: string;
  let env: Record<string, string>;
  let outlookId: string;
  let nativeId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-outlook-'));
    graph = await startFakeGraph({ email: 'carol@contoso.com' });
    graph.store.addCalendar('Birthdays');
    env = {
      MERIDIAN_OUTLOOK_CLIENT_ID: graph.identity.clientId,
      MERIDIAN_OUTLOOK_AUTHORITY: graph.identity.authority,
      MERIDIAN_OUTLOOK_GRAPH_ROOT: graph.root,
      // The child processes trust the fake identity platform's certificate.
      NODE_EXTRA_CA_CERTS: graph.identity.caFile,
      MERIDIAN_TIMEZONE: 'America/New_York',
    };
    server = await startServe(['--data-dir', dataDir], env);
    const created = await meridian(['keys', 'create', '--label', 'agent', '--data-dir', dataDir]);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    keyId = token.split('_')[1]!;
    agent = await connectHttpClient(server.url, undefined, { authorization: `Bearer ${token}` });
  });

  afterAll(async () => {
    await agent?.close();
    await server?.stop();
    await graph?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (name: string, args: Json) => okTool<Json>(agent, name, args);

  it('signs in with the device code and grants the account calendars to --key only', async () => {
    const child = spawn(
      process.execPath,
      ['bin/meridian.mjs', 'connect', 'outlook', '--key', keyId, '--data-dir', dataDir],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Play the person at microsoft.com/devicelogin: read the code the CLI shows, approve it.
    const userCode = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /enter the code (\w+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      void exited.then(() => reject(new Error(`connect exited early: ${stderr}`)));
    });
    graph.identity.answerDeviceCode(userCode, true);

    expect(await exited).toBe(0);
    expect(stderr).toContain('https://microsoft.com/devicelogin');
    expect(stdout).toMatch(/Connected carol@contoso.com: 2 calendar\(s\), granted to key/);
    const calendars = (await call('list_calendars', { provider: 'outlook', format: 'json' }))
      .calendars as Json[];
    expect(calendars.map((c) => [c.name, c.primary, c.can_write])).toEqual([
      ['Calendar', true, true],
      ['Birthdays', false, true],
    ]);
    outlookId = calendars[0]!.id;
    nativeId = (await call('create_calendar', { summary: 'Home' })).calendar_id;
  });

  it('lists, creates, moves and deletes an event on the Outlook calendar', async () => {
    const made = await call('create_event', {
      calendar_id: outlookId,
      summary: 'Quarterly review',
      start: { date_time: '2026-06-01T10:00:00-04:00', time_zone: 'America/New_York' },
      end: { date_time: '2026-06-01T11:00:00-04:00', time_zone: 'America/New_York' },
      return_event: true,
    });
    const stored = [...graph.store.calendar(graph.defaultCalendarId).events.values()];
    expect(stored.map((e) => [e.fields.subject, e.fields.start])).toEqual([
      ['Quarterly review', { dateTime: '2026-06-01T10:00:00', timeZone: 'Eastern Standard Time' }],
    ]);

    await call('update_event', {
      calendar_id: outlookId,
      event_id: made.event_id,
      start: { date_time: '2026-06-01T14:00:00-04:00', time_zone: 'America/New_York' },
      end: { date_time: '2026-06-01T15:00:00-04:00', time_zone: 'America/New_York' },
    });
    const listed = await call('list_events', {
      calendar_id: outlookId,
      start: '2026-06-01T00:00:00-04:00',
      end: '2026-06-02T00:00:00-04:00',
      format: 'json',
    });
    expect((listed.events as Json[]).map((e) => [e.id, e.summary, e.start_utc])).toEqual([
      [made.event_id, 'Quarterly review', '2026-06-01T18:00:00+00:00'],
    ]);

    await call('delete_event', { calendar_id: outlookId, event_id: made.event_id });
    const after = await call('list_events', {
      calendar_id: outlookId,
      start: '2026-06-01T00:00:00-04:00',
      end: '2026-06-02T00:00:00-04:00',
      format: 'json',
    });
    expect(after.events).toEqual([]);
    expect(graph.store.calendar(graph.defaultCalendarId).events.size).toBe(0);
  });

  it('finds free time across the Outlook and a native calendar', async () => {
    const day = (h: number) => `2026-06-02T${String(h).padStart(2, '0')}:00:00-04:00`;
    await call('create_event', {
      calendar_id: outlookId,
      summary: 'Outlook meeting',
      start: { date_time: day(9) },
      end: { date_time: day(11) },
    });
    await call('create_event', {
      calendar_id: nativeId,
      summary: 'Dentist',
      start: { date_time: day(13) },
      end: { date_time: day(14) },
    });

    const availability = await call('get_availability', {
      calendar_ids: [outlookId, nativeId],
      start: day(8),
      end: day(17),
      format: 'json',
    });

    expect(availability.calendars_merged).toBe(2);
    expect((availability.busy as Json[]).map((b) => [b.start, b.end])).toEqual([
      ['2026-06-02T13:00:00.000Z', '2026-06-02T15:00:00.000Z'],
      ['2026-06-02T17:00:00.000Z', '2026-06-02T18:00:00.000Z'],
    ]);
    expect((availability.free as Json[]).map((f) => [f.start, f.end])).toEqual([
      ['2026-06-02T12:00:00.000Z', '2026-06-02T13:00:00.000Z'],
      ['2026-06-02T15:00:00.000Z', '2026-06-02T17:00:00.000Z'],
      ['2026-06-02T18:00:00.000Z', '2026-06-02T21:00:00.000Z'],
    ]);
  });

  it("records the owner's decline with Graph's decline action, and the time is free again", async () => {
    const window = { start: '2026-06-03T09:00:00-04:00', end: '2026-06-03T10:00:00-04:00' };
    const { event_id } = await call('create_event', {
      calendar_id: outlookId,
      summary: 'Vendor pitch',
      start: { date_time: window.start },
      end: { date_time: window.end },
      attendees: ['carol@contoso.com', { email: 'dan@example.com', response: 'tentative' }],
    });
    const before = await call('check_availability', { calendar_id: outlookId, ...window });

    const answer = await call('respond_to_event', { calendar_id: outlookId, event_id, response: 'declined' });
    const after = await call('check_availability', { calendar_id: outlookId, ...window });
    const read = await call('get_event', { calendar_id: outlookId, event_id });

    expect(before.available).toBe(false);
    // Carol organized it: Graph's `organizer` answer reads as accepted.
    expect(answer).toMatchObject({
      attendee: 'carol@contoso.com',
      response: 'declined',
      previous: 'accepted',
    });
    expect(after).toMatchObject({ available: true, conflicts: [] });
    expect((read.event as Json).attendees).toEqual([
      expect.objectContaining({ email: 'carol@contoso.com', response_status: 'declined', self: true }),
      expect.objectContaining({ email: 'dan@example.com', response_status: 'tentative' }),
    ]);
    const answered = graph.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/decline'));
    expect(answered.map((r) => r.path)).toEqual([expect.stringContaining(encodeURIComponent(event_id))]);
    expect(graph.store.render(graph.store.resolve(event_id)).responseStatus).toMatchObject({
      response: 'declined',
    });
  });

  it('answers PROVIDER_AUTH_FAILED saying what to do once Microsoft revoked the sign-in, never an empty calendar', async () => {
    graph.identity.revokeAll();

    const result = await callTool(agent, 'list_events', {
      calendar_id: outlookId,
      start: '2026-06-02T00:00:00-04:00',
      end: '2026-06-03T00:00:00-04:00',
      format: 'json',
    });

    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe('PROVIDER_AUTH_FAILED');
    expect(error.message).toMatch(/sign in to Microsoft again: run `npx meridian connect outlook --key/);
  });

  it('connects again with --browser: a sign-in URL for this machine instead of a device code', async () => {
    const child = spawn(
      process.execPath,
      ['bin/meridian.mjs', 'connect', 'outlook', '--browser', '--label', 'again', '--data-dir', dataDir],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /to connect Outlook:\s+(https:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      void exited.then(() => reject(new Error(`connect exited early: ${stderr}`)));
    });
    // Play the browser: Microsoft's page posts the code to the CLI's loopback port.
    const page = await (await fetch(url)).text();
    const fields = [...page.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [
      name!,
      value!,
    ]);
    await fetch(/action="([^"]+)"/.exec(page)![1]!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

    expect(await exited).toBe(0);
    expect(stdout).toMatch(/Connected carol@contoso.com: 2 calendar\(s\), granted to no key yet/);
  });
});
