import type { SyncQuotas } from '../core/memory/snapshots/sync-quota.js';
import type {
  BlobStore,
  BookingSteps,
  BookingWorkflow,
  CloudTarget,
  Embedder,
  Logger,
  ProjectFolderReader,
} from '../core/ports/index.js';
import type { McpDeps } from '../mcp/deps.js';
import type { CalendarPlatform } from './compose-providers.js';
import { PART_NAMES, type Parts, wireParts } from './wiring.js';

/** What differs between the runtimes; everything else is wired the same way by the table in wiring.ts. */
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

/**
 * Every part of the graph over a platform, built now (each once, by the wiring table): what the
 * embedded runtime, the AWS admin CLI and the tests run against. The Lambda functions build from
 * the same table, part by part, as their calls need (aws-http.ts, aws-booking-steps.ts, …).
 *
 * @example
 * const runtime = withAllTools(await composeDeps(platform));
 */
export async function composeDeps(platform: Platform) {
  const part = wireParts(platform);
  const built = Object.fromEntries(
    await Promise.all(PART_NAMES.map(async (name) => [name, await part(name)] as const)),
  ) as unknown as Parts;
  const { registry } = built;
  const { shadow } = built.providers;
  const locks = built.locks;
  return {
    activeHolds: async (calendarId: string) => (await locks.activeHolds(calendarId)).holds,
    clock: platform.clock,
    defaultTimezone: platform.defaultTimezone,
    logger: platform.logger,
    version: platform.version,
    access: built.access,
    calendars: built.calendars,
    booking: built.booking,
    idempotency: async () => built.idempotency,
    rules: built.rules,
    memory: built.memory,
    /** Project memory's blob store: what the scheduled sweep collects unlisted snapshots from. */
    memoryBlobs: built.memoryBlobs,
    insights: built.insights,
    snapshots: built.snapshots,
    search: built.search,
    bookingSteps: built.bookingSteps,
    registry,
    encryption: platform.encryption,
    store: platform.store,
    random: platform.random,
    shadow,
  } satisfies McpDeps & Record<string, unknown>;
}

export type ComposedDeps = Awaited<ReturnType<typeof composeDeps>>;
