import { once } from '../core/once.js';
import type { BookingWorkflow, Logger, MetricsSink } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { DEFAULT_CALL_LIMITS } from '../mcp/call-limits.js';
import type { McpHttpDeps } from '../mcp/deps.js';
import { deferredAllToolsCatalogue } from '../mcp/tools/deferred-catalogue.js';
import { awsOauthTokens } from './aws-oauth-tokens.js';
import { awsPlatform } from './aws-platform.js';
import { awsProtectedResource } from './aws-protected-resource.js';
import { requestGuards } from './compose-guards.js';
import { type Environment, requireSettings } from './environment.js';
import { sliceLoaderOver } from './slices.js';
import { wireParts } from './wiring.js';

/**
 * Composition root of the MCP function, for its cold start. Built at once: the configuration
 * checks, the table client and tools/list, answered from the listing bundled with the code. Built
 * on first use, from the wiring table: API-key authentication (the first request), and for each
 * tools/call the slice of the graph its tool declares — a clock for the time tools, the calendars
 * for the calendar tools, memory alone for the memory tools — from chunks that Node does not
 * load until then. With sign-in deployed, bearer tokens of the authorization server too
 * (aws-oauth-tokens.ts: jose and the public key on the first token). book_slot starts the
 * Express state machine MERIDIAN_BOOKING_STATE_MACHINE_ARN
 * names; its client loads on the first booking.
 */
export function createAwsHttpDeps(
  environment: Environment,
  logger: Logger,
  /** Where calls, faults and limit refusals are counted (the handler's Powertools EMF sink). */
  metrics?: MetricsSink,
): McpHttpDeps {
  const { bookingStateMachineArn } = requireSettings(environment, ['bookingStateMachineArn', 'dataKeyArn']);
  const workflow = once(async () => {
    const [{ SFNClient }, { SfnBookingWorkflow }] = await Promise.all([
      import('@aws-sdk/client-sfn'),
      import('../adapters/workflow/sfn-booking-workflow.js'),
    ]);
    return new SfnBookingWorkflow({ client: new SFNClient({}), stateMachineArn: bookingStateMachineArn });
  });
  const booking: BookingWorkflow = { book: async (input) => (await workflow()).book(input) };
  const platform = awsPlatform(environment, logger, booking);
  const part = wireParts(platform);
  const protectedResource = awsProtectedResource(environment);
  const access = () => part('access');
  return {
    version: platform.version,
    logger,
    tools: deferredAllToolsCatalogue,
    // With sign-in deployed (MERIDIAN_OAUTH_TOKENS=on), its access tokens beside API keys.
    ...(environment.oauthTokens
      ? awsOauthTokens(environment.publicUrl, platform.store, access)
      : { tokenVerifier: { authenticate: async (token: string) => (await access()).authenticate(token) } }),
    toolDeps: sliceLoaderOver(platform, part),
    ...requestGuards({ store: platform.store, clock: systemClock }, environment, metrics),
    callLimits: { ...DEFAULT_CALL_LIMITS, ...environment.callLimits },
    ...(protectedResource ? { protectedResource } : {}),
  };
}
