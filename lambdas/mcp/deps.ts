import type { AccessStore } from '../core/access/access-store.js';
import type { Principal } from '../core/access/rights.js';
import type { TokenVerifier } from '../core/access/token-verifier.js';
import type { AvailabilityDeps } from '../core/availability/availability-queries.js';
import type { BookingService } from '../core/booking/booking-service.js';
import type { CalendarService } from '../core/calendar/calendar-service.js';
import type { Logger, ShadowCalendar, TimeDeps } from '../core/ports/index.js';
import type { ToolCallHook } from './tool-call-hooks.js';
import type { ToolCatalogue } from './tool-catalogue.js';
import type { ToolsetSelection } from './toolsets.js';

/** Everything the MCP layer needs, built by a composition root in lambdas/runtime. */
export interface McpDeps extends TimeDeps {
  logger: Logger;
  version: string;
  /** API keys and grants: HTTP requests authenticate against it. */
  access: AccessStore;
  calendars: CalendarService;
  /**
   * Meridian's copy of connected calendars, kept current by the sync. A tool that answers from it
   * says how fresh its view is with `shadow.freshness(calendarId)` (`synced_at`, `age_seconds`).
   */
  shadow: ShadowCalendar;
  /** book_slot: the checks before the workflow, and the workflow (BookingWorkflow port) behind it. */
  booking: BookingService;
  /** Active booking holds of a calendar: check_availability counts them as busy. */
  activeHolds: AvailabilityDeps['activeHolds'];
}

/**
 * What `createMcpServer` needs up front. The object graph the tools run against comes from
 * `toolDeps()`, so a runtime may build it on the first tools/call: the Lambda does, and a cold
 * start that answers tools/list loads neither the tools nor the services behind them.
 */
export interface McpServerDeps {
  version: string;
  logger: Logger;
  tools: ToolCatalogue;
  toolDeps(): Promise<McpDeps>;
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
}

/**
 * What admitting a connection needs (request-pipeline.ts): the server's deps and who a bearer
 * token belongs to. Named for HTTP, where tokens are presented; stdio's runtime is one too.
 */
export interface McpHttpDeps extends McpServerDeps {
  /** API keys today (`AccessStore`); OAuth access tokens later. */
  tokenVerifier: TokenVerifier;
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
}
