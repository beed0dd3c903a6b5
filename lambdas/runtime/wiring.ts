import { setTimeout as sleep } from 'node:timers/promises';
import type { AccessStore } from '../core/access/access-store.js';
import type { BookingService } from '../core/booking/booking-service.js';
import type { IdempotencyRecords } from '../core/booking/idempotency.js';
import type { SlotLocks } from '../core/booking/slot-locks.js';
import type { CalendarRegistry } from '../core/calendar/calendar-registry.js';
import type { CalendarService } from '../core/calendar/calendar-service.js';
import type { MemoryInsights } from '../core/memory/memory-insights.js';
import type { MemoryService } from '../core/memory/memory-service.js';
import type { ProjectMemorySearch } from '../core/memory/search/project-memory-search.js';
import type { MemorySnapshots } from '../core/memory/snapshots/memory-snapshots.js';
import type { MemoryStore } from '../core/memory/store/memory-store.js';
import { once } from '../core/once.js';
import type { BlobStore, BookingSteps } from '../core/ports/index.js';
import type { RulesService } from '../core/rules/rules-service.js';
import type { Platform } from './compose.js';
import type { ProviderGraph } from './compose-providers.js';
import { DEFAULT_LOCK_TTL_SECONDS } from './environment.js';
import { missingBlobStore } from './lazy-blob-store.js';

/**
 * The one wiring table: every object of the graph, by name, with the one place that builds it.
 * A builder imports its code when it runs (in a Lambda bundle each is a chunk of its own) and asks
 * for the parts it stands on, so a runtime builds what its first call needs and nothing more: the
 * MCP function a slice per toolset, a booking step its locks and records, the sync its calendars'
 * providers, the compression sweep the memory store. The embedded runtime and the tests build
 * every part (compose.ts); each part is still built once.
 */
export interface Parts {
  /** API keys and grants. */
  access: AccessStore;
  /** Calendar and connection records: all a sync run with no connected calendar loads. */
  registry: CalendarRegistry;
  /** Each record's provider and the shadow calendar (no grants, no firewall). */
  providers: ProviderGraph;
  /** Calendars through their providers, with grants and the content firewall. */
  calendars: CalendarService;
  /** book_slot's holds: the steps take them, check_availability counts them as busy. */
  locks: SlotLocks;
  /** One set of idempotency records: book_slot's and every keyed write tool's. */
  idempotency: IdempotencyRecords;
  bookingSteps: BookingSteps;
  booking: BookingService;
  rules: RulesService;
  /** Project memory's blobs: large bodies, search indexes, snapshots. */
  memoryBlobs: BlobStore;
  memoryStore: MemoryStore;
  memory: MemoryService;
  snapshots: MemorySnapshots;
  /** search_context's index, behind the project read check (ProjectMemorySearch). */
  search: ProjectMemorySearch;
  insights: MemoryInsights;
}

export type PartName = keyof Parts;

/** Builds (once) and answers one part of the graph. */
export type PartLoader = <Name extends PartName>(name: Name) => Promise<Parts[Name]>;

const pause = (ms: number) => sleep(ms);

export function lockTtlMs(platform: Platform): number {
  return (platform.lockTtlSeconds ?? DEFAULT_LOCK_TTL_SECONDS) * 1000;
}

const PART_BUILDERS: { [Name in PartName]: (platform: Platform, part: PartLoader) => Promise<Parts[Name]> } =
  {
    access: async ({ store, clock, random }) => {
      const { AccessStore } = await import('../core/access/access-store.js');
      return new AccessStore({ store, clock, random });
    },
    registry: async ({ store }) => {
      const { CalendarRegistry } = await import('../core/calendar/calendar-registry.js');
      return new CalendarRegistry(store);
    },
    providers: async (platform, part) => {
      const [{ composeProviders }, registry] = await Promise.all([
        import('./compose-providers.js'),
        part('registry'),
      ]);
      return composeProviders(platform, registry);
    },
    calendars: async ({ clock, random, defaultTimezone }, part) => {
      const [{ CalendarService }, access, registry] = await Promise.all([
        import('../core/calendar/calendar-service.js'),
        part('access'),
        part('registry'),
      ]);
      // The providers when a call first reaches one: list_calendars reads the registry alone.
      const providers = {
        forConnection: async (connectionId: string) =>
          (await part('providers')).providers.forConnection(connectionId),
      };
      const native = async () => (await part('providers')).native;
      return new CalendarService({ registry, access, providers, native, clock, random, defaultTimezone });
    },
    locks: async (platform) => {
      // On its own, not from holds.js: check_availability reads the holds with none of the steps' code.
      const { SlotLocks } = await import('../core/booking/slot-locks.js');
      const { store, clock, random } = platform;
      return new SlotLocks({ store, clock, random, pause, ttlMs: lockTtlMs(platform) });
    },
    idempotency: async (platform) => {
      // On its own, not from holds.js: a keyed write tool needs none of the steps' code.
      const { IdempotencyRecords } = await import('../core/booking/idempotency.js');
      return new IdempotencyRecords({
        store: platform.store,
        clock: platform.clock,
        leaseMs: lockTtlMs(platform),
      });
    },
    bookingSteps: async (platform, part) => {
      const [{ bookingStepsOver }, locks, idempotency] = await Promise.all([
        import('./parts/holds.js'),
        part('locks'),
        part('idempotency'),
      ]);
      const { store, clock, random, defaultTimezone, logger } = platform;
      return bookingStepsOver(
        {
          deps: {
            store,
            clock,
            random,
            pause,
            lockTtlMs: lockTtlMs(platform),
            defaultTimezone,
            logger,
            ...lazyCalendars(part),
          },
          locks,
          idempotency,
        },
        logger,
      );
    },
    booking: async (platform, part) => {
      const [{ BookingService, checkEventContent }, calendars, idempotency, steps] = await Promise.all([
        import('./parts/booking.js'),
        part('calendars'),
        part('idempotency'),
        part('bookingSteps'),
      ]);
      return new BookingService({
        calendars,
        idempotency,
        workflow: platform.booking?.(steps) ?? bookingNotConfigured,
        clock: platform.clock,
        random: platform.random,
        // The same firewall as every other event write (summary, description, attendees).
        checkEventContent,
      });
    },
    rules: async ({ store, clock, random }, part) => {
      const [{ RulesService }, access] = await Promise.all([
        import('../core/rules/rules-service.js'),
        part('access'),
      ]);
      // The calendars when a rules call first reads an event: list_projects never does.
      return new RulesService({ store, clock, random, calendars: () => part('calendars'), access });
    },
    memoryBlobs: async (platform) =>
      platform.memoryBlobs ?? missingBlobStore('this runtime has no memory bucket configured'),
    memoryStore: async (platform, part) => {
      const [{ MemoryStore, nodeGzip }, blobs] = await Promise.all([
        import('./parts/memory-store.js'),
        part('memoryBlobs'),
      ]);
      const { store, clock, random, memoryItemsCap } = platform;
      return new MemoryStore({
        store,
        blobs,
        clock,
        random,
        compressor: nodeGzip,
        ...(memoryItemsCap === undefined ? {} : { itemsCap: memoryItemsCap }),
      });
    },
    memory: async (platform, part) => {
      const [{ MemoryService, ProjectStore }, memory, access, blobs] = await Promise.all([
        import('./parts/memory-service.js'),
        part('memoryStore'),
        part('access'),
        part('memoryBlobs'),
      ]);
      const { store, clock, random } = platform;
      return new MemoryService({
        store,
        memory,
        // Projects alone, not the rules service: a memory call loads nothing of the calendars.
        projects: new ProjectStore({ store, clock, random }),
        access,
        blobs,
        folders: platform.projectFolders,
      });
    },
    snapshots: async (platform, part) => {
      const [{ MemorySnapshots }, { nodeGzip }, memory, blobs] = await Promise.all([
        import('../core/memory/snapshots/memory-snapshots.js'),
        import('./parts/memory-store.js'),
        part('memory'),
        part('memoryBlobs'),
      ]);
      return new MemorySnapshots({
        state: memory.memory,
        blobs,
        encryption: platform.encryption,
        store: platform.store,
        clock: platform.clock,
        random: platform.random,
        authorize: (principal, projectId, right) => memory.authorize(principal, projectId, right),
        cloud: platform.memorySync?.cloud,
        quotas: platform.memorySync?.quotas,
        compressor: nodeGzip,
      });
    },
    search: async (platform, part) => {
      const [{ MemorySearch, ProjectMemorySearch, localEmbedder }, reader, blobs, memory] = await Promise.all(
        [import('./parts/memory-search.js'), part('memoryStore'), part('memoryBlobs'), part('memory')],
      );
      // Read on the project is checked before any branch is resolved (the one access layer).
      return new ProjectMemorySearch(
        memory,
        new MemorySearch({
          reader,
          blobs,
          embedder: platform.embedder ?? localEmbedder(),
          clock: platform.clock,
        }),
      );
    },
    insights: async (platform, part) => {
      const [{ MemoryInsights, SuggestionHistory }, memory] = await Promise.all([
        import('./parts/memory-insights.js'),
        part('memory'),
      ]);
      const { store, clock, random } = platform;
      return new MemoryInsights({ access: memory, history: new SuggestionHistory({ store, clock, random }) });
    },
  };

const bookingNotConfigured = {
  book: async () => {
    throw new Error('No booking workflow is configured in this runtime (Platform.booking is unset).');
  },
};

/**
 * A booking step's calendars, loaded by the first step that reaches one: Lock never does, and
 * Release on a native calendar records nothing in the shadow calendar.
 */
function lazyCalendars(part: PartLoader) {
  const shadow = async () => (await part('providers')).shadow;
  return {
    calendars: {
      providerFor: async (record: Parameters<ProviderGraph['calendars']['providerFor']>[0]) =>
        (await part('providers')).calendars.providerFor(record),
    },
    shadow: {
      busyIntervals: async (...args: Parameters<ProviderGraph['shadow']['busyIntervals']>) =>
        (await shadow()).busyIntervals(...args),
      recordBooking: async (...args: Parameters<ProviderGraph['shadow']['recordBooking']>) => {
        const { isNativeCalendarId } = await import('../core/calendar/native-calendar-id.js');
        if (!isNativeCalendarId(args[0])) await (await shadow()).recordBooking(...args);
      },
      freshness: async (calendarId: string) => (await shadow()).freshness(calendarId),
    },
  };
}

/**
 * The parts of one platform: each built on first request, once (concurrent requests share it).
 *
 * @example
 * const part = wireParts(platform);
 * const calendars = await part('calendars'); // builds access and providers too, once
 */
export function wireParts(platform: Platform): PartLoader {
  const built = new Map<PartName, () => Promise<unknown>>();
  const part: PartLoader = (name) => {
    let make = built.get(name);
    if (!make) {
      make = once(() => PART_BUILDERS[name](platform, part));
      built.set(name, make);
    }
    return make() as Promise<Parts[typeof name]>;
  };
  return part;
}

/** Every part's name: what a runtime that builds the whole graph up front asks for. */
export const PART_NAMES = Object.keys(PART_BUILDERS) as PartName[];
