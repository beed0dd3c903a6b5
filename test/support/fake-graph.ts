import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FakeGraphError,
  FakeGraphStore,
  idOf,
  invalidRequest,
  itemNotFound,
  type Json,
  type ViewItem,
} from './fake-graph-store.js';
import { type GraphTime, graphTimeMs, renderTime } from './fake-graph-time.js';
import { type FakeMicrosoftIdentity, startFakeMicrosoftIdentity } from './fake-microsoft-identity.js';

/**
 * A local stand-in for Microsoft Graph v1.0 calendars, on node:http, answering in the shapes of
 * Microsoft's Graph reference: calendars, events (CRUD with `@odata.etag` and If-Match),
 * `instances`, the owner's answers (`accept`, `decline`, `tentativelyAccept` → `responseStatus`),
 * `calendarView` (paged with `@odata.nextLink`), `calendarView/delta` (`$skiptoken`
 * pages, a `$deltatoken` link, 410 `syncStateNotFound` once expired), `getSchedule`, the
 * `Prefer: outlook.timezone` and `odata.maxpagesize` headers, Graph's error body, and queued faults
 * (429/503 with Retry-After, 500, 401). Bearer tokens must be ones the fake identity issued.
 *
 * @example
 * const graph = await startFakeGraph();
 * // new OutlookCalendarProvider({ graphRoot: graph.root, tokens: … }) …
 * await graph.close();
 */

export interface FakeGraphOptions {
  /** The mailbox owner. @default 'alice@contoso.com' */
  email?: string;
  /** Largest page served, whatever the client prefers (Graph may serve fewer than asked). @default 1000 */
  maxPageSize?: number;
  /** Seconds the identity fake tells MSAL to wait between device-code polls. @default 1 */
  pollIntervalSeconds?: number;
}

export type FaultKind = 'throttled' | 'unavailable' | 'serverError' | 'unauthorized';

export interface RecordedGraphRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  prefer: string | undefined;
  ifMatch: string | undefined;
}

export interface FakeGraph {
  /** Give this to the adapter as its Graph root: `http://127.0.0.1:PORT/v1.0`. */
  root: string;
  identity: FakeMicrosoftIdentity;
  store: FakeGraphStore;
  email: string;
  /** The default calendar's id. */
  defaultCalendarId: string;
  requests: RecordedGraphRequest[];
  /** The next `count` Graph requests (of `method`, when given) answer with this fault. */
  injectFaults(kind: FaultKind, count: number, match?: { method?: string; retryAfterSeconds?: number }): void;
  /** Every delta token issued so far answers 410 with this code. */
  expireDeltaTokens(code?: 'syncStateNotFound' | 'resyncRequired'): void;
  close(): Promise<void>;
}

interface DeltaSnapshot {
  calendarId: string;
  fromMs: number;
  toMs: number;
  etags: Map<string, string>;
  expired?: string;
}

interface DeltaRound {
  entries: Json[];
  snapshotId: string;
}

export async function startFakeGraph(options: FakeGraphOptions = {}): Promise<FakeGraph> {
  const email = options.email ?? 'alice@contoso.com';
  const identity = await startFakeMicrosoftIdentity({
    email,
    ...(options.pollIntervalSeconds === undefined
      ? {}
      : { pollIntervalSeconds: options.pollIntervalSeconds }),
  });
  const store = new FakeGraphStore({ name: 'Alice', address: email });
  const primary = store.addCalendar('Calendar', true);
  const faults: { kind: FaultKind; method?: string; retryAfterSeconds: number }[] = [];
  const requests: RecordedGraphRequest[] = [];
  const snapshots = new Map<string, DeltaSnapshot>();
  const rounds = new Map<string, DeltaRound>();
  let root = '';

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    handle(req, url)
      .then(({ status, body }) => {
        res.writeHead(
          status,
          body === undefined ? {} : { 'content-type': 'application/json; odata.metadata=minimal' },
        );
        res.end(body === undefined ? undefined : JSON.stringify(body));
      })
      .catch((error: unknown) => {
        if (!(error instanceof FakeGraphError)) console.error('fake Graph failed:', error);
        const failure =
          error instanceof FakeGraphError
            ? error
            : new FakeGraphError(500, 'generalException', 'General exception while processing.');
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        res.end(JSON.stringify(failure.body()));
      });
  });

  const handle = async (req: IncomingMessage, url: URL): Promise<{ status: number; body?: unknown }> => {
    const method = req.method ?? 'GET';
    const body = method === 'POST' || method === 'PATCH' ? await readJson(req) : undefined;
    const prefer = headerText(req.headers.prefer);
    const ifMatch = headerText(req.headers['if-match']);
    requests.push({ method, path: url.pathname, query: url.searchParams, prefer, ifMatch });
    const faultIndex = faults.findIndex((f) => f.method === undefined || f.method === method);
    if (faultIndex >= 0) throw faultError(faults.splice(faultIndex, 1)[0]!);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !identity.isValidAccessToken(token))
      throw faultError({ kind: 'unauthorized', retryAfterSeconds: 0 });
    const zone = /outlook\.timezone="([^"]+)"/.exec(prefer ?? '')?.[1] ?? 'UTC';
    const maxPageSize = options.maxPageSize ?? 1000;
    const pageSize = Math.min(maxPageSize, Number(/odata\.maxpagesize=(\d+)/.exec(prefer ?? '')?.[1] ?? 10));
    const path = url.pathname.replace(/^\/v1\.0\/me/, '');
    const q = url.searchParams;
    const render = (item: ViewItem) => store.render(item, zone);

    if (path === '/calendars' && method === 'GET') {
      return ok({ value: [...store.calendars.values()].map(calendarJson) });
    }
    if (path === '/calendars' && method === 'POST') {
      const name = String((body as Json).name ?? '').trim();
      if (!name) throw invalidRequest('A calendar needs a name.');
      if ([...store.calendars.values()].some((c) => c.name === name))
        throw new FakeGraphError(
          409,
          'ErrorFolderExists',
          'A folder with the specified name already exists.',
        );
      return { status: 201, body: calendarJson(store.addCalendar(name)) };
    }
    if (path === '/calendar/getSchedule' && method === 'POST') return ok(getSchedule(body as Json, zone));

    const calendarRoute = /^\/calendars\/([^/]+)(\/.*)$/.exec(path);
    if (calendarRoute) {
      const calendarId = decodeURIComponent(calendarRoute[1]!);
      const rest = calendarRoute[2]!;
      store.calendar(calendarId);
      if (rest === '/events' && method === 'POST')
        return { status: 201, body: render(store.resolve(store.create(calendarId, body as Json).id)) };
      if (rest === '/calendarView' && method === 'GET') {
        const { fromMs, toMs } = windowOf(q);
        const items = store.view(calendarId, fromMs, toMs);
        return ok(
          pageOf(
            url,
            items.map(render),
            Math.min(maxPageSize, Number(q.get('$top') ?? pageSize)),
            Number(q.get('$skip') ?? 0),
          ),
        );
      }
      if (rest === '/calendarView/delta' && method === 'GET')
        return ok(delta(calendarId, url, pageSize, zone));
      const eventRoute = EVENT_ROUTE.exec(rest);
      if (eventRoute) {
        const id = decodeURIComponent(eventRoute[1]!);
        // Through a calendar's path, an event of another calendar does not exist.
        if (store.resolve(id).stored.calendarId !== calendarId) throw itemNotFound();
        return eventCall(method, id, eventRoute[2], q, body, ifMatch, render, url, pageSize, maxPageSize);
      }
    }
    const eventRoute = EVENT_ROUTE.exec(path);
    if (eventRoute)
      return eventCall(
        method,
        decodeURIComponent(eventRoute[1]!),
        eventRoute[2],
        q,
        body,
        ifMatch,
        render,
        url,
        pageSize,
        maxPageSize,
      );
    throw new FakeGraphError(400, 'BadRequest', `Resource not found for the segment '${path}'.`);
  };

  const eventCall = (
    method: string,
    id: string,
    /** `/instances`, or an answer (`/accept`, `/decline`, `/tentativelyAccept`), or none. */
    verb: string | undefined,
    q: URLSearchParams,
    body: unknown,
    ifMatch: string | undefined,
    render: (item: ViewItem) => Json,
    url: URL,
    pageSize: number,
    maxPageSize: number,
  ): { status: number; body?: unknown } => {
    if (verb && verb !== '/instances') return answer(method, id, verb.slice(1), body);
    if (verb) {
      const master = store.resolve(id);
      if (!master.stored.fields.recurrence || master.originalStartMs !== undefined)
        throw invalidRequest('The instances of a non-recurring event cannot be listed.');
      const { fromMs, toMs } = windowOf(q);
      const items = store.occurrencesOf(master.stored).filter((i) => i.startMs < toMs && i.endMs > fromMs);
      return ok(
        pageOf(
          url,
          items.map(render),
          Math.min(maxPageSize, Number(q.get('$top') ?? pageSize)),
          Number(q.get('$skip') ?? 0),
        ),
      );
    }
    const current = store.resolve(id);
    if (ifMatch && method !== 'GET' && ifMatch !== render(current)['@odata.etag'])
      throw new FakeGraphError(
        412,
        'ErrorIrresolvableConflict',
        'The send or update operation could not be performed because the change key passed in the request does not match the current change key for the item.',
      );
    if (method === 'GET') return ok(render(current));
    if (method === 'PATCH') return ok(render(store.update(id, body as Json)));
    if (method === 'DELETE') {
      store.delete(id);
      return { status: 204 };
    }
    throw new FakeGraphError(405, 'ErrorInvalidRequest', `Method ${method} is not allowed here.`);
  };

  /**
   * POST …/events/{id}/accept|decline|tentativelyAccept with `{ comment?, sendResponse? }`: the
   * owner's answer, 202 with no body (the event-accept reference). Works on an occurrence's id.
   */
  const answer = (method: string, id: string, action: string, body: unknown) => {
    if (method !== 'POST')
      throw new FakeGraphError(405, 'ErrorInvalidRequest', `Method ${method} is not allowed here.`);
    const input = (body ?? {}) as Json;
    const unknown = Object.keys(input).filter(
      (key) => !['comment', 'sendResponse', 'proposedNewTime'].includes(key),
    );
    if (unknown.length) throw invalidRequest(`The property '${unknown[0]}' does not exist on this action.`);
    if (input.sendResponse !== undefined && typeof input.sendResponse !== 'boolean')
      throw invalidRequest('sendResponse must be a Boolean.');
    if (input.comment !== undefined && typeof input.comment !== 'string')
      throw invalidRequest('comment must be a String.');
    store.respond(id, ANSWERS[action]!);
    return { status: 202 };
  };

  /** A delta round: the first request computes every change since the token, later ones page it. */
  const delta = (calendarId: string, url: URL, pageSize: number, zone: string): Json => {
    const q = url.searchParams;
    const skip = q.get('$skiptoken');
    let roundId: string;
    let offset = 0;
    if (skip) {
      [roundId = '', offset = 0] = [skip.split('.')[0], Number(skip.split('.')[1])];
      if (!rounds.has(roundId)) throw syncStateGone('syncStateNotFound');
    } else {
      const token = q.get('$deltatoken');
      const previous = token ? snapshots.get(token) : undefined;
      if (token && (!previous || previous.calendarId !== calendarId))
        throw syncStateGone('syncStateNotFound');
      if (previous?.expired) throw syncStateGone(previous.expired);
      const { fromMs, toMs } = previous ?? windowOf(q);
      const items = store.view(calendarId, fromMs, toMs);
      const etags = new Map(items.map((item) => [idOf(item), String(store.render(item)['@odata.etag'])]));
      const entries: Json[] = [];
      for (const item of items) {
        if (previous?.etags.get(idOf(item)) !== etags.get(idOf(item))) entries.push(store.render(item, zone));
      }
      for (const id of previous?.etags.keys() ?? []) {
        if (!etags.has(id))
          entries.push({ '@odata.type': '#microsoft.graph.event', id, '@removed': { reason: 'deleted' } });
      }
      const snapshotId = randomBytes(12).toString('base64url');
      snapshots.set(snapshotId, { calendarId, fromMs, toMs, etags });
      roundId = randomBytes(12).toString('base64url');
      rounds.set(roundId, { entries, snapshotId });
    }
    const round = rounds.get(roundId)!;
    const page = round.entries.slice(offset, offset + pageSize);
    const base = `${root}/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta`;
    const more = offset + pageSize < round.entries.length;
    return {
      '@odata.context': `${root}/$metadata#Collection(event)`,
      value: page,
      ...(more
        ? { '@odata.nextLink': `${base}?$skiptoken=${roundId}.${offset + pageSize}` }
        : { '@odata.deltaLink': `${base}?$deltatoken=${round.snapshotId}` }),
    };
  };

  const getSchedule = (body: Json, zone: string): Json => {
    const fromMs = graphTimeMs(body.startTime as GraphTime);
    const toMs = graphTimeMs(body.endTime as GraphTime);
    const interval = Number(body.availabilityViewInterval ?? 30) * 60_000;
    const value = ((body.schedules as string[]) ?? []).map((scheduleId) => {
      if (scheduleId.toLowerCase() !== email.toLowerCase()) {
        return {
          scheduleId,
          error: {
            message: 'The user was not found in this organization.',
            responseCode: 'ErrorMailRecipientNotFound',
          },
        };
      }
      const items = [...store.calendars.values()]
        .filter((c) => c.isDefaultCalendar)
        .flatMap((c) => store.view(c.id, fromMs, toMs))
        .map((item) => ({ item, fields: store.render(item, zone) }))
        .filter(({ fields }) => fields.showAs !== 'free');
      const codes: Record<string, string> = { tentative: '1', busy: '2', oof: '3', workingElsewhere: '0' };
      let view = '';
      for (let at = fromMs; at < toMs; at += interval) {
        const hits = items.filter(({ item }) => item.startMs < at + interval && item.endMs > at);
        view += hits.reduce(
          (max, { fields }) => (codes[String(fields.showAs)]! > max ? codes[String(fields.showAs)]! : max),
          '0',
        );
      }
      return {
        scheduleId,
        availabilityView: view,
        scheduleItems: items.map(({ item, fields }) => ({
          isPrivate: fields.sensitivity === 'private',
          status: fields.showAs,
          subject: fields.subject,
          location: (fields.location as Json).displayName,
          start: renderTime(item.startMs, zone),
          end: renderTime(item.endMs, zone),
        })),
        workingHours: {
          daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
          startTime: '08:00:00.0000000',
          endTime: '17:00:00.0000000',
          timeZone: { name: 'Eastern Standard Time' },
        },
      };
    });
    return { '@odata.context': `${root}/$metadata#Collection(microsoft.graph.scheduleInformation)`, value };
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1.0`;
  return {
    root,
    identity,
    store,
    email,
    defaultCalendarId: primary.id,
    requests,
    injectFaults(kind, count, match = {}) {
      for (let i = 0; i < count; i += 1) {
        faults.push({
          kind,
          retryAfterSeconds: match.retryAfterSeconds ?? 1,
          ...(match.method ? { method: match.method } : {}),
        });
      }
    },
    expireDeltaTokens(code = 'syncStateNotFound') {
      for (const snapshot of snapshots.values()) snapshot.expired = code;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await identity.close();
    },
  };
}

const EVENT_ROUTE = /^\/events\/([^/]+)(\/instances|\/accept|\/decline|\/tentativelyAccept)?$/;
const ANSWERS: Record<string, 'accepted' | 'declined' | 'tentativelyAccepted'> = {
  accept: 'accepted',
  decline: 'declined',
  tentativelyAccept: 'tentativelyAccepted',
};

function ok(body: unknown) {
  return { status: 200, body };
}

function calendarJson(calendar: {
  id: string;
  name: string;
  isDefaultCalendar: boolean;
  canEdit: boolean;
  owner: unknown;
}) {
  return {
    id: calendar.id,
    name: calendar.name,
    color: 'auto',
    hexColor: '',
    changeKey: Buffer.from(calendar.id).toString('base64').slice(0, 16),
    canShare: true,
    canViewPrivateItems: true,
    canEdit: calendar.canEdit,
    isDefaultCalendar: calendar.isDefaultCalendar,
    isRemovable: !calendar.isDefaultCalendar,
    allowedOnlineMeetingProviders: ['teamsForBusiness'],
    defaultOnlineMeetingProvider: 'teamsForBusiness',
    owner: calendar.owner,
  };
}

function windowOf(q: URLSearchParams): { fromMs: number; toMs: number } {
  const start = q.get('startDateTime') ?? q.get('startdatetime');
  const end = q.get('endDateTime') ?? q.get('enddatetime');
  if (!start || !end)
    throw new FakeGraphError(
      400,
      'ErrorInvalidParameter',
      'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
    );
  // Without an offset Graph reads the window in UTC.
  const parse = (value: string) => Date.parse(/Z|[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return { fromMs: parse(start), toMs: parse(end) };
}

function pageOf(url: URL, items: Json[], top: number, skip: number): Json {
  const size = Math.max(1, top);
  const page = items.slice(skip, skip + size);
  const next = new URL(url);
  next.searchParams.set('$skip', String(skip + size));
  return {
    value: page,
    ...(skip + size < items.length
      ? { '@odata.nextLink': `${url.origin}${next.pathname}${next.search}` }
      : {}),
  };
}

function syncStateGone(code: string): FakeGraphError {
  return new FakeGraphError(
    410,
    code,
    'The sync state generation is not found or has expired. Start a new sync without a token.',
  );
}

function faultError(fault: { kind: FaultKind; retryAfterSeconds: number }): FakeGraphError {
  const retryAfter = { 'retry-after': String(fault.retryAfterSeconds) };
  switch (fault.kind) {
    case 'throttled':
      return new FakeGraphError(
        429,
        'TooManyRequests',
        'Application is over its MailboxConcurrency limit.',
        retryAfter,
      );
    case 'unavailable':
      return new FakeGraphError(
        503,
        'serviceNotAvailable',
        'The service is temporarily unavailable.',
        retryAfter,
      );
    case 'serverError':
      return new FakeGraphError(500, 'generalException', 'General exception while processing.');
    case 'unauthorized':
      return new FakeGraphError(
        401,
        'InvalidAuthenticationToken',
        'Access token has expired or is not yet valid.',
      );
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += (chunk as Buffer).toString();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new FakeGraphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  }
}
