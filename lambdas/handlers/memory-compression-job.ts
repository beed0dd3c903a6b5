import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { IdleSweepSummary } from '../core/memory/contexts/idle-compression-sweep.js';
import { createAwsIdleSweepDeps } from '../runtime/aws-memory-compression.js';
import { SERVICE_NAME_ENV } from '../runtime/environment-names.js';
import { idleCompressionRuns } from '../runtime/memory-compression-run.js';
import { fromPowertools } from './powertools-logger.js';

const powertools = new Logger({
  serviceName: process.env[SERVICE_NAME_ENV] ?? 'meridian-memory-compression',
});
const logger = fromPowertools(powertools);
// Once per container: warm invocations reuse the clients and carry on from the previous cursor.
const run = idleCompressionRuns(createAwsIdleSweepDeps(process.env), logger);

/** Leaves the rest of the index for the next run once less than this is left before the timeout. */
export const STOP_MARGIN_MS = 60_000;

/**
 * EventBridge Scheduler → compression of idle memory contexts (the schedule's input, `{}`, is
 * ignored). A failing project is in the summary (and the log), not an error: only a failure of
 * the run itself (the table unreachable) fails the invocation.
 */
export const handler = middy<unknown, IdleSweepSummary>()
  .use(injectLambdaContext(powertools))
  .handler(async (_event: unknown, context: Context) =>
    run({ shouldStop: () => context.getRemainingTimeInMillis() < STOP_MARGIN_MS }),
  );
