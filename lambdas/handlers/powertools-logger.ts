import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Logger } from '../core/ports/index.js';
import { traceLogKeys } from '../mcp/trace/trace-scope.js';

/**
 * Adapts Powertools' Logger to Meridian's small Logger port (its variadic extras differ). The
 * request's trace context (trace-scope.ts) goes in as keys of each line, not as the logger's
 * appended keys: those are shared by every request the process serves at once.
 */
export function fromPowertools(logger: PowertoolsLogger): Logger {
  const keys = (extra: Record<string, unknown> | undefined) => ({ ...traceLogKeys(), ...extra });
  return {
    info: (message, extra) => logger.info(message, keys(extra)),
    warn: (message, extra) => logger.warn(message, keys(extra)),
    error: (message, extra) => logger.error(message, keys(extra)),
  };
}
