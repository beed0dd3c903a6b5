import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessStore } from '../../../../lambdas/core/access/access-store.js';
import { LOCAL_OWNER } from '../../../../lambdas/core/access/rights.js';
import { CalendarRegistry } from '../../../../lambdas/core/calendar/calendar-registry.js';
import { CalendarService } from '../../../../lambdas/core/calendar/calendar-service.js';
import type { CalendarEvent, EditScope, EventDraft } from '../../../../lambdas/core/calendar/event.js';
import { NativeCalendarProvider } from '../../../../lambdas/core/calendar/native/native-calendar-provider.js';
import { PENDING_GRACE_MS } from '../../../../lambdas/core/calendar/native/native-pending.js';
import { ORPHAN_GRANT_GRACE_MS } from '../../../../lambdas/core/calendar/orphan-grants.js';
import type {
  CalendarRef,
  Clock,
  DocumentStore,
  RandomSource,
} from '../../../../lambdas/core/ports/index.js';
import { PK_PREFIX } from '../../../../lambdas/core/storage/key-prefixes.js';
import { queryAll } from '../../../../lambdas/core/storage/query-all.js';
import { nodeRandom } from '../../../../lambdas/runtime/node-random.js';
import { crashingStore } from '../../../support/crashing-store.js';
import { startTestRuntime, type TestRuntime } from '../../../support/test-runtime.js';

const NOW = Date.parse('2027-01-10T12:00:00Z');
const WINDOW = { start: '2027-01-01T00:00:00Z', end: '2027-04-01T00:00:00Z' };
const DEFAULT_SCOPE = { scope: 'this' as EditScope };

/** A clock the test moves, so that leftovers can be aged past the grace period. */
function movableClock(): Clock & { advance(ms: number): void } {
  let now = NOW;
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}

/** The same ids in every run, so that a crashed run and the reference run can be compared. */
function countingRandom(): RandomSource {
  let next = 0;
  return {
    bytes: nodeRandom.bytes,
    uuid: () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`,
  };
}

const oneOff: EventDraft = {
  summary: 'one-off',
  start: { date_time: '2027-01-12T09:00:00Z' },
  end: { date_time: '2027-01-12T10:00:00Z' },
};
const weekly: EventDraft = {
  summary: 'weekly',
  start: { date_time: '2027-01-11T15:00:00Z' },
  end: { date_time: '2027-01-11T16:00:00Z' },
  recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
};
const THIRD = '20270125T150000Z';

interface Case {
  name: string;
  /** Writes the state before the change; returns the id the change works on. */
  arrange(provider: NativeCalendarProvider, calendar: CalendarRef): Promise<string>;
  act(provider: NativeCalendarProvider, calendar: CalendarRef, id: string): Promise<unknown>;
}

const onOneOff = async (p: NativeCalendarProvider, c: CalendarRef) => (await p.createEvent(c, oneOff)).id;
const onSeries = async (p: NativeCalendarProvider, c: CalendarRef) => (await p.createEvent(c, weekly)).id;
const occurrence = (id: string) => `${id}_${THIRD}`;

const CASES: Case[] = [
  { name: 'create a one-off event', arrange: async () => '', act: (p, c) => p.createEvent(c, oneOff) },
  { name: 'create a series', arrange: async () => '', act: (p, c) => p.createEvent(c, weekly) },
  {
    name: 'update a one-off event',
    arrange: onOneOff,
    act: (p, c, id) =>
      p.updateEvent(c, id, { summary: 'moved', start: weekly.start, end: weekly.end }, DEFAULT_SCOPE),
  },
  {
    name: 'make a one-off event recur',
    arrange: onOneOff,
    act: (p, c, id) => p.updateEvent(c, id, { recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] }, DEFAULT_SCOPE),
  },
  ...(['this', 'following', 'all'] as const).flatMap((scope): Case[] => [
    {
      name: `update an occurrence, scope ${scope}`,
      arrange: onSeries,
      act: (p, c, id) => p.updateEvent(c, occurrence(id), { summary: `edited ${scope}` }, { scope }),
    },
    {
      name: `delete an occurrence, scope ${scope}`,
      arrange: onSeries,
      act: (p, c, id) => p.deleteEvent(c, occurrence(id), { scope }),
    },
  ]),
  {
    name: 'delete a one-off event',
    arrange: onOneOff,
    act: (p, c, id) => p.deleteEvent(c, id, DEFAULT_SCOPE),
  },
  { name: 'delete a series', arrange: onSeries, act: (p, c, id) => p.deleteEvent(c, id, DEFAULT_SCOPE) },
];

/** What any reader can see: the listing, and each listed event read back by id. */
async function visible(provider: NativeCalendarProvider, calendar: CalendarRef) {
  const strip = ({ calendar_id: _c, ...event }: CalendarEvent) => event;
  const listed = (
    await provider.listEvents(calendar, { ...WINDOW, max_results: 100, single_events: true })
  ).events.map(strip);
  const read = await Promise.all(
    listed.map(async (event) => strip(await provider.getEvent(calendar, event.id))),
  );
  return { listed, read };
}

describe('native calendar writes interrupted by a crash', () => {
  let runtime: TestRuntime;
  let calendarNumber = 0;

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(async () => {
    await runtime?.close();
  });

  function calendarWith(store: DocumentStore, clock: Clock) {
    const nativeId = `crash-${++calendarNumber}`;
    const calendar: CalendarRef = {
      native_id: nativeId,
      calendar_id: `native/${nativeId}`,
      time_zone: 'UTC',
    };
    const random = countingRandom();
    const provider = (over: DocumentStore = store) =>
      new NativeCalendarProvider({ store: over, clock, random });
    return { calendar, provider };
  }

  it.each(CASES)('leaves the old state or the new one, whole, and no leftover: $name', async (change) => {
    const clock = movableClock();
    const reference = calendarWith(runtime.store, clock);
    const id = await change.arrange(reference.provider(), reference.calendar);
    await change.act(reference.provider(), reference.calendar, id);
    const after = await visible(reference.provider(), reference.calendar);
    let crashes = 0;

    for (let budget = 0; budget < 6; budget += 1) {
      const run = calendarWith(runtime.store, clock);
      const runId = await change.arrange(run.provider(), run.calendar);
      const before = await visible(run.provider(), run.calendar);

      const failed = await change
        .act(run.provider(crashingStore(runtime.store, budget)), run.calendar, runId)
        .then(() => false)
        .catch(() => true);
      if (failed) crashes += 1;

      const seen = await visible(run.provider(), run.calendar);
      expect(seen.read, `every listed event can be read (crash after ${budget} writes)`).toEqual(seen.listed);
      expect([before, after], `old or new state after ${budget} writes`).toContainEqual(seen);
      if (!failed) expect(seen).toEqual(after);

      // Once leftovers are stale, readers remove them: nothing pending stays behind.
      clock.advance(PENDING_GRACE_MS + 1);
      expect(await visible(run.provider(), run.calendar)).toEqual(seen);
      const items = await queryAll(runtime.store, {
        partition: `NCAL#${run.calendar.native_id}`,
        consistent: true,
      });
      expect(
        items.filter((item) => 'pending' in item),
        `leftovers after ${budget} writes`,
      ).toEqual([]);
      clock.advance(-(PENDING_GRACE_MS + 1));
    }
    expect(crashes).toBeGreaterThan(0);
  });
});

describe('creating a calendar interrupted by a crash', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it('shows the creator and the owner either no new calendar or one the creator can write', async () => {
    for (let budget = 0; budget < 4; budget += 1) {
      const { keyId } = await runtime.newKey(`crash-${budget}`);
      const principal = { kind: 'api-key', keyId, label: `crash-${budget}` } as const;
      const store = crashingStore(runtime.store, budget);
      const service = new CalendarService({
        ...runtime.calendars.deps,
        registry: new CalendarRegistry(store),
        access: new AccessStore({ store, clock: runtime.clock, random: runtime.random }),
      });
      const ownerBefore = (await runtime.calendars.listCalendars(LOCAL_OWNER)).length;

      const failed = await service
        .createCalendar(principal, { name: `crash ${budget}` })
        .then(() => false)
        .catch(() => true);

      const mine = await runtime.calendars.listCalendars(principal);
      const owners = await runtime.calendars.listCalendars(LOCAL_OWNER);
      expect(
        mine.map((c) => c.can_write),
        `crash after ${budget} writes`,
      ).toEqual(owners.length > ownerBefore ? [true] : []);
      if (!failed) expect(mine).toHaveLength(1);
    }
  });

  /** The key's grants on calendars that do not exist: what a crash may leave behind. */
  async function grantsOnNothing(keyId: string): Promise<string[]> {
    const existing = new Set((await runtime.registry.listCalendars()).map((c) => c.calendar_id));
    return (await runtime.access.grantsOf(keyId))
      .map((grant) => grant.resource.id)
      .filter((id) => !existing.has(id));
  }

  /** The calendar service as it runs later, when what a crash left has passed its grace period. */
  const later = (ms: number) =>
    new CalendarService({
      ...runtime.calendars.deps,
      clock: { now: () => new Date(runtime.clock.now().getTime() + ms) },
    });

  it('leaves no grant on a calendar that was never written once the key lists its calendars', async () => {
    let orphans = 0;
    for (let budget = 0; budget < 4; budget += 1) {
      const { keyId } = await runtime.newKey(`orphan-${budget}`);
      const principal = { kind: 'api-key', keyId, label: `orphan-${budget}` } as const;
      const store = crashingStore(runtime.store, budget);
      const service = new CalendarService({
        ...runtime.calendars.deps,
        registry: new CalendarRegistry(store),
        access: new AccessStore({ store, clock: runtime.clock, random: runtime.random }),
      });
      await service.createCalendar(principal, { name: `orphan ${budget}` }).catch(() => undefined);
      const left = await grantsOnNothing(keyId);
      orphans += left.length;

      // Within the grace period the grant may belong to a creation still under way: it stays.
      await later(ORPHAN_GRANT_GRACE_MS - 60_000).listCalendars(principal);
      expect(await grantsOnNothing(keyId), `crash after ${budget} writes, in grace`).toEqual(left);
      const mine = await later(ORPHAN_GRANT_GRACE_MS + 60_000).listCalendars(principal);

      expect(await grantsOnNothing(keyId), `crash after ${budget} writes`).toEqual([]);
      expect((await runtime.access.grantsOf(keyId)).map((g) => g.resource.id)).toEqual(mine.map((c) => c.id));
    }
    // The crash between the grant and the record happened, and left the grant the sweep removed.
    expect(orphans).toBeGreaterThan(0);
  });

  it('withdraws the creator’s grant at once when the calendar record cannot be written', async () => {
    const { keyId } = await runtime.newKey('record-refused');
    const principal = { kind: 'api-key', keyId, label: 'record-refused' } as const;
    // The store refuses the calendar record only, as a throttled or failing write would.
    const refusing: DocumentStore = {
      ...runtime.store,
      get: (key, options) => runtime.store.get(key, options),
      query: (options) => runtime.store.query(options),
      batchGet: (keys) => runtime.store.batchGet(keys),
      batchPut: (items) => runtime.store.batchPut(items),
      batchDelete: (keys) => runtime.store.batchDelete(keys),
      delete: (key, options) => runtime.store.delete(key, options),
      put: async (item, options) => {
        if (item.pk.startsWith(PK_PREFIX.calendar)) throw new Error('ProvisionedThroughputExceededException');
        return runtime.store.put(item, options);
      },
    };
    const service = new CalendarService({
      ...runtime.calendars.deps,
      registry: new CalendarRegistry(refusing),
      access: new AccessStore({ store: refusing, clock: runtime.clock, random: runtime.random }),
    });

    const created = service.createCalendar(principal, { name: 'refused' });

    await expect(created).rejects.toThrow('ProvisionedThroughputExceededException');
    expect(await runtime.access.grantsOf(keyId)).toEqual([]);
  });
});
