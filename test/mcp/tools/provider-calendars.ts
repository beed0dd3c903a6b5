import { SyncingCalDavProvider } from '../../../lambdas/adapters/caldav/caldav-sync.js';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { syncAll } from '../../../lambdas/core/shadow/sync-all.js';
import { addCalendar, addConnection, startShadowRuntime } from '../../core/shadow/shadow-fixture.js';
import { type FakeGoogleCalendar, startFakeGoogleCalendar } from '../../support/fake-google-calendar.js';
import { callTool, type ToolOutput as Json, okTool } from '../../support/mcp-client.js';
import { type RadicaleServer, startRadicale } from '../../support/radicale.js';
import { serveRuntime } from '../../support/served-runtime.js';
import type { TestRuntime } from '../../support/test-runtime.js';

export const PROVIDERS = ['native', 'google', 'caldav'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The person whose calendars these are: Google account, CalDAV user, native owner_email. */
export const OWNER = 'ann@example.com';
export const NY = 'America/New_York';
const CALDAV_PASSWORD = 'correct horse battery staple';

/**
 * One calendar on each provider, all owned by {@link OWNER}, behind the real MCP server over HTTP
 * with an agent holding a Bearer key granted all three: native on dynalite (made with the
 * create_calendar tool), Google on the local fake of Calendar v3, CalDAV on a real Radicale.
 * `seed` writes events through the calendar service, as any client of the provider would.
 */
export async function startProviderCalendars() {
  const google: FakeGoogleCalendar = await startFakeGoogleCalendar({ email: OWNER, timeZone: NY });
  const radicale: RadicaleServer = await startRadicale({ [OWNER]: CALDAV_PASSWORD });
  // Sunday 1 March 2026, noon in UTC; the week after is in EST (-05:00).
  const runtime: TestRuntime = await startShadowRuntime({
    clock: fixedClock('2026-03-01T12:00:00Z'),
    google,
    defaultTimezone: NY,
  });
  const served = await serveRuntime(runtime);
  const { client: agent, keyId } = await served.connect('agent');

  /** A tool's structured answer; throws with the error body when the tool failed. */
  const call = (name: string, args: Json) => okTool(agent, name, args);
  const callRaw = (name: string, args: Json) => callTool(agent, name, args);

  const native = (await call('create_calendar', { summary: 'Ann', time_zone: NY, owner_email: OWNER }))
    .calendar_id as string;

  await addConnection(
    runtime,
    { connection_id: 'g1', provider: 'google', connection_kind: 'oauth', account: OWNER },
    { refresh_token: google.oauth.issueRefreshToken() },
  );
  const googleId = (
    await addCalendar(runtime, {
      provider: 'google',
      connection_id: 'g1',
      native_id: OWNER,
      time_zone: NY,
      primary: true,
    })
  ).calendar_id;

  const dav = new SyncingCalDavProvider({
    serverUrl: radicale.url,
    username: OWNER,
    password: CALDAV_PASSWORD,
    calendarPrefix: 'caldav/d1/',
  });
  const davCalendar = await dav.createCalendar({ name: 'Ann', time_zone: NY });
  await addConnection(
    runtime,
    {
      connection_id: 'd1',
      provider: 'caldav',
      connection_kind: 'password',
      account: OWNER,
      server_url: radicale.url,
    },
    { password: CALDAV_PASSWORD },
  );
  const caldavId = (
    await addCalendar(runtime, {
      provider: 'caldav',
      connection_id: 'd1',
      native_id: davCalendar.native_id,
      time_zone: NY,
    })
  ).calendar_id;
  for (const id of [googleId, caldavId]) await runtime.access.setGrant(keyId, calendarResource(id), 'write');

  const calendars: Record<ProviderName, string> = { native, google: googleId, caldav: caldavId };
  return {
    runtime,
    google,
    calendars,
    call,
    callRaw,
    seed: (provider: ProviderName, draft: EventDraft) =>
      runtime.calendars.createEvent(LOCAL_OWNER, calendars[provider], draft),
    /** Fills the shadow calendar of the connected calendars, as `meridian sync` does. */
    sync: () => syncAll(runtime),
    async close() {
      await served.close();
      await google.close();
      await radicale.stop();
    },
  };
}

export type ProviderCalendars = Awaited<ReturnType<typeof startProviderCalendars>>;
