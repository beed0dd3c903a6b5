import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalDavCalendarProvider } from '../../lambdas/adapters/caldav/caldav-calendar-provider.js';
import { meridian, startServe } from '../support/cli.js';
import { type FakeGoogleCalendar, startFakeGoogleCalendar } from '../support/fake-google-calendar.js';
import { connectHttpClient, okTool } from '../support/mcp-client.js';
import { type RadicaleServer, startRadicale } from '../support/radicale.js';
import { needs, RADICALE } from '../support/system-parts.js';

type Json = Record<string, unknown>;

/**
 * `meridian connect caldav|google` end to end: a real Radicale and the local Google fake, the CLI
 * as a separate process joining a running `serve`, then the same tools over MCP on both accounts.
 */
describe('meridian connect with a running server', { timeout: 120_000, ...needs(RADICALE) }, () => {
  let dataDir: string;
  let radicale: RadicaleServer;
  let google: FakeGoogleCalendar;
  let server: Awaited<ReturnType<typeof startServe>>;
  let agent: Client;
  let keyId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-connect-'));
    radicale = await startRadicale({ alice: 's3cret' });
    google = await startFakeGoogleCalendar({ email: 'bob@example.com' });
    const caldav = new CalDavCalendarProvider({
      serverUrl: radicale.url,
      username: 'alice',
      password: 's3cret',
      calendarPrefix: 'x/',
    });
    await caldav.createCalendar({ name: 'Alice work', time_zone: 'Europe/Paris' });
    env = {
      MERIDIAN_GOOGLE_CLIENT_ID: google.clientId,
      MERIDIAN_GOOGLE_CLIENT_SECRET: google.clientSecret,
      MERIDIAN_GOOGLE_API_ROOT: google.rootUrl,
      MERIDIAN_GOOGLE_TOKEN_URL: google.tokenUrl,
      MERIDIAN_GOOGLE_AUTH_URL: google.authUrl,
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
    await radicale?.stop();
    await google?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (name: string, args: Json) => okTool<Json>(agent, name, args);

  it('refuses a wrong CalDAV password and stores nothing', async () => {
    const attempt = meridian(
      [
        'connect',
        'caldav',
        '--url',
        radicale.url,
        '--username',
        'alice',
        '--key',
        keyId,
        '--data-dir',
        dataDir,
      ],
      {
        MERIDIAN_CALDAV_PASSWORD: 'wrong',
      },
    );

    await expect(attempt).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/password|reconnect/i),
    });
    expect((await call('list_calendars', { format: 'json' })).calendars).toEqual([]);
  });

  it('connects a CalDAV account, grants its calendars to --key only, and serves them over MCP', async () => {
    const connected = await meridian(
      [
        'connect',
        'caldav',
        '--url',
        radicale.url,
        '--username',
        'alice',
        '--key',
        keyId,
        '--data-dir',
        dataDir,
      ],
      {
        MERIDIAN_CALDAV_PASSWORD: 's3cret',
      },
    );
    expect(connected.stdout).toMatch(/granted to key/);
    expect(connected.stdout + connected.stderr).not.toContain('s3cret');

    const calendars = (await call('list_calendars', { provider: 'caldav', format: 'json' }))
      .calendars as Json[];
    expect(calendars).toMatchObject([
      { provider: 'caldav', name: 'Alice work', can_write: true, connection_kind: 'password' },
    ]);
    const calendarId = calendars[0]!.id as string;
    const made = await call('create_event', {
      calendar_id: calendarId,
      summary: 'Dentist',
      start: { date_time: '2026-06-01T10:00:00+02:00', time_zone: 'Europe/Paris' },
      end: { date_time: '2026-06-01T10:30:00+02:00', time_zone: 'Europe/Paris' },
      return_event: true,
    });
    const listed = await call('list_events', {
      calendar_id: calendarId,
      start: '2026-06-01T00:00:00Z',
      end: '2026-06-02T00:00:00Z',
      format: 'json',
    });
    expect((listed.events as Json[]).map((e) => e.summary)).toEqual(['Dentist']);
    expect((made.event as Json).start_utc).toBe('2026-06-01T08:00:00+00:00');
  });

  it('connects a Google account through the loopback OAuth flow and serves it over MCP', async () => {
    const child = spawn(
      process.execPath,
      ['bin/meridian.mjs', 'connect', 'google', '--key', keyId, '--data-dir', dataDir],
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
    // Play the browser: open the consent URL the CLI prints, follow the redirect to its loopback.
    const consentUrl = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /connect Google Calendar:\s+(https?:\/\/\S+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      void exited.then(() => reject(new Error(`connect exited early: ${stderr}`)));
    });
    await fetch(consentUrl, { redirect: 'follow' });

    expect(await exited).toBe(0);
    expect(stdout).toMatch(/Connected bob@example.com/);
    const calendars = (await call('list_calendars', { provider: 'google', format: 'json' }))
      .calendars as Json[];
    expect(calendars).toMatchObject([
      { provider: 'google', primary: true, can_write: true, connection_kind: 'oauth' },
    ]);
    const made = await call('quick_add_event', {
      calendar_id: calendars[0]!.id,
      text: 'Team lunch on 2026-06-02 at 12:30 for 90 minutes at Bistro',
    });
    expect(made.understood).toMatchObject({
      summary: 'Team lunch',
      location: 'Bistro',
      duration_minutes: 90,
    });
    const stored = [...google.store.calendar(google.email).events.values()].map((s) => s.event.summary);
    expect(stored).toContain('Team lunch');
  });
});
