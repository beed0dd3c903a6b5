import { AccessStore } from '../core/access/access-store.js';
import { once } from '../core/once.js';
import type { Logger } from '../core/ports/index.js';
import { systemClock } from '../core/ports/index.js';
import { type McpHttpDeps, sliceLoader, type TimeSlice } from '../mcp/deps.js';
import { deferredAllToolsCatalogue } from '../mcp/tools/deferred-catalogue.js';
import { checkZone, configuredTimezone, requiredEnv } from './aws-environment.js';
import { awsTableStore } from './aws-table-store.js';
import { requestGuards } from './compose-guards.js';
import { BOOKING_STATE_MACHINE_ARN_ENV, DATA_KEY_ARN_ENV } from './environment-names.js';
import { nodeRandom } from './node-random.js';
import { VERSION } from './version.js';

/**
 * Composition root of the MCP function, split in two for its cold start. Built at once: what
 * every request needs — configuration checks, the table client, API-key authentication — and
 * tools/list, answered from the listing bundled with the code. Built on the first tools/call:
 * the tools and the slice of the graph the tool needs — a clock for the time tools, the services
 * behind the others (./aws.ts) — which the bundle keeps in chunks that Node does not compile
 * until then. The graph reuses this document store and its client.
 */
export function createAwsHttpDeps(env: NodeJS.ProcessEnv, logger: Logger): McpHttpDeps {
  // Read now so that a misconfigured deployment fails its cold start, not its first tool call.
  requiredEnv(env, BOOKING_STATE_MACHINE_ARN_ENV);
  requiredEnv(env, DATA_KEY_ARN_ENV);
  const timezone = configuredTimezone(env);
  if (timezone !== undefined) checkZone(timezone);
  const store = awsTableStore(env);
  // The time tools need only a clock: a time call loads and builds no table service.
  const time: TimeSlice = { clock: systemClock, defaultTimezone: timezone };
  const graph = once(async () => {
    const { createAwsDeps } = await import('./aws.js');
    return createAwsDeps(env, logger, { store });
  });
  return {
    version: VERSION,
    logger,
    tools: deferredAllToolsCatalogue,
    tokenVerifier: new AccessStore({ store, clock: systemClock, random: nodeRandom }),
    ...requestGuards({ store, clock: systemClock }, env),
    toolDeps: sliceLoader({
      time: async () => time,
      calendar: graph,
      availability: graph,
      booking: graph,
      rules: graph,
      memory: graph,
    }),
  };
}
