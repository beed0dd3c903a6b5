// First: stack traces name the TypeScript sources, each map read only when an error needs it.
import './lazy-source-maps.js';
// Then: zod parses without generating code (why: zod-jitless.ts).
import './zod-jitless.js';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { IdleSweepSummary } from '../core/memory/contexts/idle-compression-sweep.js';
import { once } from '../core/once.js';
import { createAwsIdleSweepDeps } from '../runtime/aws-memory-compression.js';
import { awsSchemaCheck } from '../runtime/aws-schema-version.js';
import { processEnvironment } from '../runtime/environment.js';
import { idleCompressionRuns } from '../runtime/memory-compression-run.js';
import { requireSchemaVersion } from './middleware/schema-version.js';
import { fromPowertools } from './powertools-logger.js';

// Parsed once, at cold start: a bad variable fails it, named in the error.
const environment = processEnvironment();
const powertools = new Logger({ serviceName: environment.serviceName ?? 'meridian-memory-compression' });
const logger = fromPowertools(powertools);
const deps = createAwsIdleSweepDeps(environment, logger);
const schemaReady = awsSchemaCheck(environment, logger);
// Once per container: warm invocations reuse the clients and carry on from the previous cursor.
const runs = once(async () => idleCompressionRuns(await deps(), logger));

/** Leaves the rest of the index for the next run once less than this is left before the timeout. */
export const STOP_MARGIN_MS = 60_000;

/**
 * EventBridge Scheduler → compression of idle memory contexts (the schedule's input, `{}`, is
 * ignored). A failing project is in the summary (and the log), not an error: only a failure of
 * the run itself (the table unreachable) fails the invocation.
 */
export const handler = middy<unknown, IdleSweepSummary>()
  .use(injectLambdaContext(powertools))
  .use(requireSchemaVersion(schemaReady, logger))
  .handler(async (_event: unknown, context: Context) =>
    (await runs())({ shouldStop: () => context.getRemainingTimeInMillis() < STOP_MARGIN_MS }),
  );
