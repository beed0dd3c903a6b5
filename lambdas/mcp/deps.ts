import type { AccessStore } from '../core/access/access-store.js';
import type { Principal } from '../core/access/rights.js';
import type { AvailabilityDeps } from '../core/availability/availability-queries.js';
import type { BookingService } from '../core/booking/booking-service.js';
import type { IdempotencyRecords } from '../core/booking/idempotency.js';
import type { CalendarService } from '../core/calendar/calendar-service.js';
import type { CallWork } from '../core/call-work.js';
import type { RequestLimiter } from '../core/limits/request-limiter.js';
import type { MemoryInsights } from '../core/memory/memory-insights.js';
import type { MemoryService } from '../core/memory/memory-service.js';
import type { ProjectMemorySearch } from '../core/memory/search/project-memory-search.js';
import type { MemorySnapshots } from '../core/memory/snapshots/memory-snapshots.js';
import type { Logger, MetricsSink, ShadowCalendar, TimeDeps, TokenVerifier } from '../core/ports/index.js';
import type { RulesService } from '../core/rules/rules-service.js';
import type { CallLimits } from './call-limits.js';
import type { ProtectedResource } from './http/protected-resource.js';
import type { ToolCallHook } from './tool-call-hooks.js';
import type { ToolCatalogue } from './tool-catalogue.js';
import type { ToolsetSelection } from './toolsets.js';

/**
 * The slices of the object graph, by capability. A tool declares the one it runs against
 * (`ToolDefinition.needs`) and a runtime builds only that slice for its call: on Lambda a time
 * tool builds no table service and loads none of their code.
 */
export type DepsSlice =
  | 'time'
  | 'calendar'
  | 'availability'
  | 'booking'
  | 'rules'
  | 'memory'
  | 'memoryWrites'
  | 'memoryInsights'
  | 'memorySnapshots'
  | 'memorySearch';

/** The time tools: a clock and the configured zone, nothing stored. */
export type TimeSlice = TimeDeps;

/** What every slice that writes has: the records that make a keyed retry return the first answer. */
export interface KeyedWrites {
  /** mcp/idempotent-call.ts's records (book_slot's too), loaded by the first keyed write: a read loads none. */
  idempotency: () => Promise<IdempotencyRecords>;
}

/** The calendar tools: calendars through their providers, with the caller's grants checked. */
export interface CalendarSlice extends TimeSlice, KeyedWrites {
  calendars: CalendarService;
}

/** Free/busy and availability: calendars, the shadow calendar and booking holds. */
export interface AvailabilitySlice extends CalendarSlice {
  /**
   * Meridian's copy of connected calendars, kept current by the sync. A tool that answers from it
   * says how fresh its view is with `shadow.freshness(calendarId)` (`synced_at`, `age_seconds`).
   */
  shadow: ShadowCalendar;
  /** Active booking holds of a calendar: check_availability counts them as busy. */
  activeHolds: AvailabilityDeps['activeHolds'];
}

/**
 * book_slot: the checks before the workflow, and the workflow (BookingWorkflow port) behind it;
 * availability too, for the free slots a SLOT_TAKEN answer suggests.
 */
export interface BookingSlice extends AvailabilitySlice {
  booking: BookingService;
}

/**
 * Timesheet rules: projects, rules and pins in the table; events read through the calendars,
 * which the rules service loads when it first reads one (list_projects builds no calendar).
 */
export interface RulesSlice extends TimeSlice, KeyedWrites {
  rules: RulesService;
}

/**
 * Project memory (issue 10): the memory service (grants, branches, entries, contexts; its
 * `memory` is the MemoryReader / MemoryStateStore seam). The memory tools' slices below add one
 * area each, so that a first list_branches loads no search index, snapshot or grounding code.
 */
export interface MemorySlice extends TimeSlice {
  memory: MemoryService;
}

/** The memory tools that take an `idempotency_key` and need nothing more (create_branch). */
export interface MemoryWritesSlice extends MemorySlice, KeyedWrites {}

/** Grounding, suggestions, automation status and the context graph (and update_memory's grounding). */
export interface MemoryInsightsSlice extends MemoryWritesSlice {
  insights: MemoryInsights;
}

/** Snapshots and cloud sync. */
export interface MemorySnapshotsSlice extends MemoryWritesSlice {
  snapshots: MemorySnapshots;
}

/** Hybrid search over a project's memory (search_context), read on the project checked first. */
export interface MemorySearchSlice extends MemorySlice {
  search: ProjectMemorySearch;
}

/** Each slice by name: what `toolDeps(slice)` answers. */
export interface SliceDeps {
  time: TimeSlice;
  calendar: CalendarSlice;
  availability: AvailabilitySlice;
  booking: BookingSlice;
  rules: RulesSlice;
  memory: MemorySlice;
  memoryWrites: MemoryWritesSlice;
  memoryInsights: MemoryInsightsSlice;
  memorySnapshots: MemorySnapshotsSlice;
  memorySearch: MemorySearchSlice;
}

/** Builds (once) and answers the slice a call needs. */
export type SliceLoader = <Slice extends DepsSlice>(slice: Slice) => Promise<SliceDeps[Slice]>;

/** Every slice at once, built by a composition root in lambdas/runtime (embedded, tests, CLI). */
export interface McpDeps
  extends BookingSlice,
    RulesSlice,
    MemoryInsightsSlice,
    MemorySnapshotsSlice,
    MemorySearchSlice {
  logger: Logger;
  version: string;
  /** API keys and grants: HTTP requests authenticate against it. */
  access: AccessStore;
}

/**
 * A loader from one builder per slice; each builder should build once (see core/once.ts).
 *
 * @example
 * const toolDeps = sliceLoader({ time: async () => timeSlice, calendar: graph, availability: graph, booking: graph, rules: graph, memory: graph, memoryWrites: graph, memoryInsights: graph, memorySnapshots: graph, memorySearch: graph });
 */
export function sliceLoader(
  builders: { [Slice in DepsSlice]: () => Promise<SliceDeps[Slice]> },
): SliceLoader {
  return (slice) => builders[slice]();
}

/**
 * A loader over a graph built up front: it holds every slice, so every call gets the same graph.
 *
 * @example
 * const toolDeps = everySlice(composeDeps(platform));
 * (await toolDeps('time')).clock.now();
 */
export function everySlice(deps: McpDeps): SliceLoader {
  const all = async () => deps;
  return sliceLoader({
    time: all,
    calendar: all,
    availability: all,
    booking: all,
    rules: all,
    memory: all,
    memoryWrites: all,
    memoryInsights: all,
    memorySnapshots: all,
    memorySearch: all,
  });
}

/**
 * What `createMcpServer` needs up front. The object graph the tools run against comes from
 * `toolDeps(slice)`, so a runtime may build each slice on the first tools/call that needs it: the
 * Lambda does, and a cold start that answers tools/list loads neither the tools nor the services
 * behind them.
 */
export interface McpServerDeps {
  version: string;
  logger: Logger;
  tools: ToolCatalogue;
  toolDeps: SliceLoader;
  /**
   * Run around every authorised tools/call (see request-pipeline.ts): rate limits, audit.
   * @default - none
   */
  hooks?: readonly ToolCallHook[];
  /**
   * The toolsets of a connection that chooses none (`meridian serve|stdio --toolsets`); a key's
   * default and the URL's `?toolsets=` take precedence.
   * @default - every toolset
   */
  defaultToolsets?: ToolsetSelection;
  /**
   * Work and time one call may take (one HTTP request: a JSON-RPC batch shares them).
   * @default DEFAULT_CALL_LIMITS: 50,000 items, 30 s
   */
  callLimits?: CallLimits;
}

/**
 * What admitting a connection needs (request-pipeline.ts): the server's deps and who a bearer
 * token belongs to. Named for HTTP, where tokens are presented; stdio's runtime is one too.
 */
export interface McpHttpDeps extends McpServerDeps {
  /** API keys (`AccessStore`), and OAuth access tokens beside them where an authorization server runs. */
  tokenVerifier: TokenVerifier;
  /**
   * Where OAuth tokens for /mcp come from: serves the protected-resource metadata and points the
   * 401/403 challenges at it (http/protected-resource.ts).
   * @default - none: API keys only, challenges without resource metadata
   */
  protectedResource?: ProtectedResource;
  /**
   * Per-caller request budgets, spent before a request runs (http/rate-limit-refusal.ts: 429).
   * @default - none: no per-caller limit (stage throttling still applies on AWS)
   */
  limits?: RequestLimiter;
  /**
   * Where the HTTP layer counts what never reaches a tool-call hook (a rate-limit refusal).
   * @default - none
   */
  metrics?: MetricsSink;
}

/** Per-request facts a tool may need: who is calling, its toolsets, and where to report progress. */
export interface ToolContext {
  principal: Principal;
  /** @default - every toolset */
  toolsets?: ToolsetSelection;
  /**
   * Tells the client how a long call is going: an `info` log message (and a progress
   * notification when the request asked for one). Stdio carries them; stateless HTTP in JSON
   * mode drops them, so a tool must not depend on them being seen.
   */
  progress?(message: string): void;
  /**
   * The work this call may still do, and the signal that stops it (client gone, deadline passed);
   * shared by every call of one HTTP request, so a JSON-RPC batch is bounded as one call is.
   * @default - a fresh bound per call, stopped only by its deadline
   */
  work?: CallWork;
  /** The request this call came in, for the audit log. @default - one made per call */
  requestId?: string;
  /** Who the client says it is (HTTP: its user agent), for the audit log. @default 'unknown' */
  client?: string;
}
