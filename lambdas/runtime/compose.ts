import { setTimeout as sleep } from 'node:timers/promises';
import { nodeGzip } from '../adapters/compression/node-gzip.js';
import { BookingService } from '../core/booking/booking-service.js';
import { createBookingSteps } from '../core/booking/booking-steps.js';
import { IdempotencyRecords } from '../core/booking/idempotency.js';
import { SlotLocks } from '../core/booking/slot-locks.js';
import type { CalendarRegistry } from '../core/calendar/calendar-registry.js';
import { checkEventContent } from '../core/firewall/check-event-content.js';
import { MemoryInsights } from '../core/memory/memory-insights.js';
import { MemoryService } from '../core/memory/memory-service.js';
import { localEmbedder } from '../core/memory/search/local-embedder.js';
import { MemorySearch } from '../core/memory/search/memory-search.js';
import { ProjectMemorySearch } from '../core/memory/search/project-memory-search.js';
import { MemorySnapshots } from '../core/memory/snapshots/memory-snapshots.js';
import type { SyncQuotas } from '../core/memory/snapshots/sync-quota.js';
import { MemoryStore } from '../core/memory/store/memory-store.js';
import { SuggestionHistory } from '../core/memory/suggestions/suggestion-history.js';
import type {
  BlobStore,
  BookingSteps,
  BookingWorkflow,
  CloudTarget,
  DocumentStore,
  Embedder,
  EnvelopeEncryption,
  Logger,
  ProjectFolderReader,
  RandomSource,
} from '../core/ports/index.js';
import { RulesService } from '../core/rules/rules-service.js';
import type { McpDeps } from '../mcp/deps.js';
import { DEFAULT_LOCK_TTL_SECONDS } from './booking-config.js';
import { composeCalendars } from './compose-calendars.js';
import type { CalendarPlatform } from './compose-providers.js';
import { missingBlobStore } from './lazy-blob-store.js';

/** What differs between the runtimes; everything else is wired the same way by {@link composeDeps}. */
export interface Platform extends CalendarPlatform {
  logger: Logger;
  version: string;
  /**
   * Builds the booking workflow: the embedded runtime runs `steps` in booking.asl.json locally,
   * AWS starts the deployed state machine (and ignores them).
   *
   * @default - none: book_slot answers that booking is not configured in this runtime
   */
  booking?: (steps: BookingSteps) => BookingWorkflow;
  /** Lifetime of a booking's hold on its slot (LOCK_TTL_SECS). @default 30 */
  lockTtlSeconds?: number;
  /** Records one project's memory may hold (MERIDIAN_MEMORY_MAX_ITEMS). @default DEFAULT_MEMORY_ITEMS_CAP (20,000) */
  memoryItemsCap?: number;
  /**
   * Project memory's blobs: large bodies, search indexes, snapshots (S3 on AWS, files under the
   * data dir embedded).
   *
   * @default - none: a memory write that needs a blob fails with STORAGE_ERROR
   */
  memoryBlobs?: BlobStore;
  /**
   * Project folders on this machine (the embedded runtime only), read as core/memory/folders/host-folders.ts
   * allows: the local owner's anywhere, API keys' inside the folders `serve --scan-folder` lists.
   *
   * @default - none: initialize_context stores only the files the agent sends
   */
  projectFolders?: ProjectFolderReader;
  /**
   * Turns memory into vectors for search_context (Bedrock Titan v2 on AWS with
   * `-c embeddings=bedrock`).
   *
   * @default localEmbedder(): deterministic, nothing downloaded
   */
  embedder?: Embedder;
  /** The organisation's bucket project memory syncs through. @default - none: sync tools say so */
  memorySync?: { cloud: CloudTarget; quotas?: SyncQuotas };
}

const bookingNotConfigured: BookingWorkflow = {
  book: async () => {
    throw new Error('No booking workflow is configured in this runtime (Platform.booking is unset).');
  },
};

/**
 * Wires the domain services on top of a platform. Both composition roots (embedded, AWS) and the
 * tests call it, so the object graph a test exercises is the one users run.
 */
export function composeDeps(platform: Platform): McpDeps & {
  registry: CalendarRegistry;
  encryption: EnvelopeEncryption;
  store: DocumentStore;
  random: RandomSource;
  bookingSteps: BookingSteps;
  /** Project memory's blob store: what the scheduled sweep collects unlisted snapshots from. */
  memoryBlobs: BlobStore;
} {
  const { store, clock, random, defaultTimezone } = platform;
  const { access, registry, calendars, shadow } = composeCalendars(platform);
  const lockTtlMs = (platform.lockTtlSeconds ?? DEFAULT_LOCK_TTL_SECONDS) * 1000;
  const bookingSteps = createBookingSteps({
    store,
    clock,
    random,
    pause: (ms) => sleep(ms),
    calendars,
    shadow,
    lockTtlMs,
    defaultTimezone,
    logger: platform.logger,
  });
  // One set of idempotency records: book_slot's and every keyed write tool's.
  const idempotency = new IdempotencyRecords({ store, clock, leaseMs: lockTtlMs });
  const booking = new BookingService({
    calendars,
    idempotency,
    workflow: platform.booking?.(bookingSteps) ?? bookingNotConfigured,
    clock,
    random,
    // The same firewall as every other event write (summary, description, attendees).
    checkEventContent,
  });
  // Read-only use of book_slot's locks: check_availability treats an active hold as busy.
  const locks = new SlotLocks({ store, clock, random, pause: (ms) => sleep(ms), ttlMs: lockTtlMs });
  const rules = new RulesService({ store, clock, random, calendars, access });
  const blobs = platform.memoryBlobs ?? missingBlobStore('this runtime has no memory bucket configured');
  const memory = new MemoryService({
    store,
    memory: new MemoryStore({
      store,
      blobs,
      clock,
      random,
      compressor: nodeGzip,
      ...(platform.memoryItemsCap === undefined ? {} : { itemsCap: platform.memoryItemsCap }),
    }),
    projects: rules.projects,
    access,
    blobs,
    folders: platform.projectFolders,
  });
  const snapshots = new MemorySnapshots({
    state: memory.memory,
    blobs,
    encryption: platform.encryption,
    store,
    clock,
    random,
    authorize: (principal, projectId, right) => memory.authorize(principal, projectId, right),
    cloud: platform.memorySync?.cloud,
    quotas: platform.memorySync?.quotas,
    compressor: nodeGzip,
  });
  return {
    activeHolds: async (calendarId: string) => (await locks.activeHolds(calendarId)).holds,
    clock,
    defaultTimezone,
    logger: platform.logger,
    version: platform.version,
    access,
    calendars,
    booking,
    idempotency,
    rules,
    memory,
    memoryBlobs: blobs,
    insights: new MemoryInsights({
      access: memory,
      history: new SuggestionHistory({ store, clock, random }),
    }),
    snapshots,
    search: new ProjectMemorySearch(
      memory,
      new MemorySearch({
        reader: memory.memory,
        blobs,
        embedder: platform.embedder ?? localEmbedder(),
        clock,
      }),
    ),
    bookingSteps,
    registry,
    encryption: platform.encryption,
    store,
    random,
    shadow,
  };
}
