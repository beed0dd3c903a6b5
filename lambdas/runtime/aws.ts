import { systemClock } from '../core/ports.js';
import { requireZone } from '../core/time/zones.js';
import type { Logger, McpDeps } from '../mcp/deps.js';
import { VERSION } from './version.js';

/**
 * Composition root of the AWS runtime: built once per Lambda container, outside the handler, so
 * warm invocations reuse it. Fails the cold start loudly on bad configuration.
 */
export function createAwsDeps(env: NodeJS.ProcessEnv, logger: Logger): McpDeps {
  const timezone = env.MERIDIAN_TIMEZONE?.trim() || undefined;
  if (timezone !== undefined) requireZone(timezone, 'MERIDIAN_TIMEZONE');
  return { clock: systemClock, defaultTimezone: timezone, logger, version: VERSION };
}
