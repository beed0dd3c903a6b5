import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Logger } from '../core/ports/index.js';

/** Adapts Powertools' Logger to Meridian's small Logger port (its variadic extras differ). */
export function fromPowertools(logger: PowertoolsLogger): Logger {
  return {
    info: (message, extra) => (extra ? logger.info(message, extra) : logger.info(message)),
    warn: (message, extra) => (extra ? logger.warn(message, extra) : logger.warn(message)),
    error: (message, extra) => (extra ? logger.error(message, extra) : logger.error(message)),
  };
}
