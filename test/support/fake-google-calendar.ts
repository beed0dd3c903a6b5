import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { calendar_v3 } from '@googleapis/calendar';
import { FAULTS, FakeGoogleHttpError, type FaultKind, notFound, unauthorized } from './fake-google-errors.js';
import { listEvents, listInstances, paginate } from './fake-google-list.js';
import { FakeGoogleOAuth } from './fake-google-oauth.js';
import { type FakeCalendar, FakeGoogleStore } from './fake-google-store.js';

/**
 * A local stand-in for the Google Calendar v3 API and Google's OAuth endpoints, on node:http.
 * It checks the Bearer tokens it issued (so token refresh is exercised), answers in Google's JSON
 * shapes, and lets a test queue faults (rate limits, 5xx, 401) for the next N API requests.
 *
 * @example
 * const google = await startFakeGoogleCalendar();
 * const auth = new OAuth2Client({ clientId: google.clientId, clientSecret: google.clientSecret,
 *   endpoints: { oauth2TokenUrl: google.tokenUrl } });
 * auth.setCredentials({ refresh_token: google.oauth.issueRefreshToken() });
 * // calendar({ version: 'v3', auth, rootUrl: google.rootUrl }) …
 * await google.close();
 */

export interface FakeGoogleOptions {
  /** The account's email, also its primary calendar id. @default 'alice@example.com' */
  email?: string;
  /** The primary calendar's zone. @default 'America/New_York' */
  timeZone?: string;
  /** @default 3600 */
  accessTokenLifetimeSeconds?: number;
  /** Largest page served whatever maxResults asks (Google may return fewer items than asked). @default 2500 */
  maxPageSize?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  ifMatch?: string;
}

export interface FakeGoogleCalendar {
  /** Give this to the API client as `rootUrl`. */
  rootUrl: string;
  tokenUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  email: string;
  store: FakeGoogleStore;
  oauth: FakeGoogleOAuth;
  /** Calendar API requests in arrival order (token endpoint excluded). */
  requests: RecordedRequest[];
  /**
   * The next `count` calendar API requests (only those with `method`, when given) answer with this
   * fault. `lostResponse` serves the request, then answers 500 as if the response was lost.
   */
  injectFaults(kind: FaultKind | 'lostResponse', count: number, match?: { method?: string }): void;
  /** Every sync token issued so far answers 410 Gone. */
  invalidateSyncTokens(): void;
  close(): Promise<void>;
}

const API = '/calendar/v3';

/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export async function startFakeGoogleCalendar(options: FakeGoogleOptions = {}): Promise<FakeGoogleCalendar> {
  const email = options.email ?? 'alice@example.com';
  const store = new FakeGoogleStore(email);
  store.addCalendar({
    id: email,
    summary: email,
    timeZone: options.timeZone ?? 'America/New_York',
    accessRole: 'owner',
    primary: true,
  });
  const oauth = new FakeGoogleOAuth(
    'fake-client.apps.googleusercontent.com',
    'fake-client-secret',
    email,
    options.accessTokenLifetimeSeconds ?? 3600,
  );
  const faults: { kind: FaultKind | 'lostResponse'; method?: string }[] = [];
  const requests: RecordedRequest[] = [];
  let syncGeneration = 1;
  const maxPageSize = options.maxPageSize ?? 2500;

  const route = async (req: IncomingMessage, url: URL): Promise<{ status: number; body?: unknown }> => {
    const body = req.method === 'POST' || req.method === 'PATCH' ? await readJson(req) : undefined;
    const ifMatch = req.headers['if-match'];
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, ifMatch });
    const faultIndex = faults.findIndex((f) => f.method === undefined || f.method === req.method);
    const fault = faultIndex < 0 ? undefined : faults.splice(faultIndex, 1)[0]?.kind;
    if (fault && fault !== 'lostResponse') throw FAULTS[fault]();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !oauth.isValidAccessToken(token)) throw unauthorized();
    const answer = serveApi(store, req.method ?? 'GET', url, body, ifMatch, syncGeneration, maxPageSize);
    if (fault === 'lostResponse') throw FAULTS.serverError();
    return answer;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    handle(req, res, url).catch((error: unknown) => {
      // A bug in the fake must not pass for a Google 500 silently: show it.
      if (!(error instanceof FakeGoogleHttpError)) console.error('fake Google Calendar failed:', error);
      const failure = error instanceof FakeGoogleHttpError ? error : FAULTS.serverError();
      send(res, failure.status, failure.body());
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (url.pathname === '/token' && req.method === 'POST') {
      const answer = oauth.token(new URLSearchParams(await readText(req)));
      return send(res, answer.status, answer.body);
    }
    if (url.pathname === '/o/oauth2/v2/auth' && req.method === 'GET') {
      const answer = oauth.consentScreen(url.searchParams);
      if (answer.location) {
        res.writeHead(302, { location: answer.location }).end();
        return;
      }
      return send(res, answer.status, answer.body);
    }
    const answer = await route(req, url);
    send(res, answer.status, answer.body);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    rootUrl: `${origin}/`,
    tokenUrl: `${origin}/token`,
    authUrl: `${origin}/o/oauth2/v2/auth`,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    email,
    store,
    oauth,
    requests,
    injectFaults: (kind, count, match) => {
      for (let i = 0; i < count; i += 1) faults.push({ kind, method: match?.method });
    },
    invalidateSyncTokens: () => {
      syncGeneration += 1;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function serveApi(
  store: FakeGoogleStore,
  method: string,
  url: URL,
  body: calendar_v3.Schema$Event | undefined,
  ifMatch: string | undefined,
  syncGeneration: number,
  maxPageSize: number,
): { status: number; body?: unknown } {
  const path = url.pathname.startsWith(API) ? url.pathname.slice(API.length) : '';
  const params = new URLSearchParams(url.searchParams);
  const asked = Number(params.get('maxResults') ?? 250);
  if (asked > maxPageSize) params.set('maxResults', String(maxPageSize));
  if (path === '/users/me/calendarList' && method === 'GET') {
    const entries = [...store.calendars.values()].map(calendarListEntry);
    return { status: 200, body: { kind: 'calendar#calendarList', ...paginate(entries, params) } };
  }
  if (path === '/calendars' && method === 'POST') {
    const input = body as calendar_v3.Schema$Calendar;
    if (!input.summary) throw new FakeGoogleHttpError(400, 'required', 'Missing title.');
    const created = store.addCalendar({
      summary: input.summary,
      description: input.description ?? undefined,
      timeZone: input.timeZone ?? 'UTC',
      accessRole: 'owner',
      primary: false,
    });
    const { id, summary, description, timeZone } = created;
    return {
      status: 200,
      body: { kind: 'calendar#calendar', etag: '"1"', id, summary, description, timeZone },
    };
  }
  const match = /^\/calendars\/([^/]+)\/events(?:\/([^/]+))?(\/instances)?$/.exec(path);
  if (!match) throw notFound();
  const calendar = store.calendar(decodeURIComponent(match[1] ?? ''));
  const eventId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
  if (eventId === undefined) {
    if (method === 'GET') {
      const page = listEvents(store, calendar, params, syncGeneration);
      return { status: 200, body: { kind: 'calendar#events', timeZone: calendar.timeZone, ...page } };
    }
    if (method === 'POST') return { status: 200, body: store.insert(calendar, body ?? {}) };
  } else if (match[3]) {
    if (method === 'GET')
      return {
        status: 200,
        body: { kind: 'calendar#events', ...listInstances(store, calendar, eventId, params) },
      };
  } else if (method === 'GET') {
    const found = store.find(calendar, eventId);
    if (!found) throw notFound();
    return { status: 200, body: found.event };
  } else if (method === 'PATCH') {
    return { status: 200, body: store.patch(calendar, eventId, body ?? {}, ifMatch) };
  } else if (method === 'DELETE') {
    store.delete(calendar, eventId, ifMatch);
    return { status: 204 };
  }
  throw new FakeGoogleHttpError(405, 'methodNotAllowed', 'Method Not Allowed');
}

function calendarListEntry(calendar: FakeCalendar): calendar_v3.Schema$CalendarListEntry {
  const { id, summary, description, timeZone, accessRole, primary } = calendar;
  return { kind: 'calendar#calendarListEntry', id, summary, description, timeZone, accessRole, primary };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(req: IncomingMessage): Promise<calendar_v3.Schema$Event> {
  const text = await readText(req);
  try {
    return text ? (JSON.parse(text) as calendar_v3.Schema$Event) : {};
  } catch {
    throw new FakeGoogleHttpError(400, 'parseError', 'Parse Error');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json; charset=UTF-8';
  res.writeHead(status, { 'content-type': type }).end(text);
}
