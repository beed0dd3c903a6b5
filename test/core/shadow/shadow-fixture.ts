import type { CalendarRecord, ConnectionRecord } from '../../../lambdas/core/calendar/calendar-registry.js';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';
import type { Clock, StoredItem } from '../../../lambdas/core/ports/index.js';
import { shadowPartition } from '../../../lambdas/core/shadow/shadow-items.js';
import { SK } from '../../../lambdas/core/storage/key-prefixes.js';
import { queryAll } from '../../../lambdas/core/storage/query-all.js';
import { parseEnvironment } from '../../../lambdas/runtime/environment.js';
import { providerFactories } from '../../../lambdas/runtime/provider-factories.js';
import { secretContext } from '../../../lambdas/runtime/provider-resolver.js';
import type { FakeGoogleCalendar } from '../../support/fake-google-calendar.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** A clock a test moves forward, as time passes between syncs. */
export interface MovableClock extends Clock {
  set(instant: string): void;
  advance(ms: number): void;
}

export function movableClock(start: string): MovableClock {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    set: (instant) => {
      current = Date.parse(instant);
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** The real object graph on dynalite, with the provider factories configured for a fake Google. */
export async function startShadowRuntime(options: {
  clock: Clock;
  google?: FakeGoogleCalendar;
  defaultTimezone?: string;
}): Promise<TestRuntime> {
  const { google } = options;
  const env = google
    ? {
        MERIDIAN_GOOGLE_CLIENT_ID: google.clientId,
        MERIDIAN_GOOGLE_CLIENT_SECRET: google.clientSecret,
        MERIDIAN_GOOGLE_API_ROOT: google.rootUrl,
        MERIDIAN_GOOGLE_TOKEN_URL: google.tokenUrl,
      }
    : {};
  return startTestRuntime({
    clock: options.clock,
    ...(options.defaultTimezone ? { defaultTimezone: options.defaultTimezone } : {}),
    factories: providerFactories(parseEnvironment(env)),
  });
}

/** Stores a connection as `meridian connect` does: the secret encrypted and bound to the connection. */
export async function addConnection(
  runtime: TestRuntime,
  connection: Omit<ConnectionRecord, 'secret_ciphertext' | 'created_at' | 'label'>,
  secret: Record<string, string>,
): Promise<void> {
  const ciphertext = await runtime.encryption.encrypt(
    Buffer.from(JSON.stringify(secret), 'utf8'),
    secretContext(connection),
  );
  await runtime.registry.putConnection({
    ...connection,
    label: null,
    secret_ciphertext: Buffer.from(ciphertext).toString('base64'),
    created_at: '2026-01-01T00:00:00Z',
  });
}

/** Registers a calendar of a connection (or a native one when the connection is `native`). */
export async function addCalendar(
  runtime: TestRuntime,
  record: Pick<CalendarRecord, 'provider' | 'connection_id' | 'native_id'> & Partial<CalendarRecord>,
): Promise<CalendarRecord> {
  const full: CalendarRecord = {
    calendar_id:
      record.provider === 'native'
        ? `native/${record.native_id}`
        : `${record.provider}/${record.connection_id}/${record.native_id}`,
    name: record.native_id,
    label: null,
    primary: false,
    access_role: 'owner',
    created_at: '2026-01-01T00:00:00Z',
    ...record,
  };
  await runtime.registry.putCalendar(full);
  return full;
}

/**
 * A native calendar with one event, and a second record, `native/alias`, naming the same native
 * id: a record whose id does not carry its native id (none is made so), for the tests that the
 * record, not the id's guess, decides which calendar is read.
 */
export async function nativeEventUnderAlias(
  runtime: TestRuntime,
  nativeId: string,
  times: { start: string; end: string },
): Promise<{ aliasId: string; event: CalendarEvent }> {
  const named = await addCalendar(runtime, {
    provider: 'native',
    connection_id: 'native',
    native_id: nativeId,
  });
  const { provider, ref } = await runtime.calendars.providerFor(named);
  const event = await provider.createEvent(ref, {
    summary: 'Held',
    start: { date_time: times.start },
    end: { date_time: times.end },
  });
  const alias = await addCalendar(runtime, {
    provider: 'native',
    connection_id: 'native',
    native_id: nativeId,
    calendar_id: 'native/alias',
  });
  return { aliasId: alias.calendar_id, event };
}

/**
 * A CalDAV calendar's record stored under the native-looking id `native/odd` (none is made so),
 * for the tests that such a record is read as what it says, not as the id suggests.
 */
export async function connectedRecordUnderNativeId(runtime: TestRuntime): Promise<string> {
  const record = await addCalendar(runtime, {
    provider: 'caldav',
    connection_id: 'c1',
    native_id: 'odd',
    calendar_id: 'native/odd',
  });
  return record.calendar_id;
}

/** Every item of a calendar's shadow but its sync state, sorted by sort key. */
export async function shadowItems(runtime: TestRuntime, calendarId: string): Promise<StoredItem[]> {
  const items = await queryAll(runtime.store, { partition: shadowPartition(calendarId), consistent: true });
  return items.filter((item) => item.sk !== SK.shadow.syncState).sort((a, b) => a.sk.localeCompare(b.sk));
}

/** Busy intervals as readable [start, end, id] triples in UTC. */
export async function busy(
  runtime: TestRuntime,
  calendarId: string,
  from: string,
  to: string,
): Promise<{ intervals: [string, string, string][]; synced_at?: string }> {
  const answer = await runtime.shadow.busyIntervals(calendarId, Date.parse(from), Date.parse(to));
  return {
    intervals: answer.intervals.map((i) => [
      new Date(i.start).toISOString(),
      new Date(i.end).toISOString(),
      i.event_id,
    ]),
    ...(answer.synced_at ? { synced_at: answer.synced_at } : {}),
  };
}
