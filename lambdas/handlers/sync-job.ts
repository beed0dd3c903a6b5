// First: stack traces name the TypeScript sources, each map read only when an error needs it.
import './lazy-source-maps.js';
// Then: zod parses without generating code (why: zod-jitless.ts).
import './zod-jitless.js';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { METRIC } from '../core/metric-names.js';
import type { SyncSummary } from '../core/shadow/sync-all.js';
import { awsSchemaCheck } from '../runtime/aws-schema-version.js';
import { createAwsSyncDeps } from '../runtime/aws-sync.js';
import { processEnvironment } from '../runtime/environment.js';
import { syncAndLog } from '../runtime/sync-run.js';
import { requireSchemaVersion } from './middleware/schema-version.js';
import { fromPowertools } from './powertools-logger.js';
import { powertoolsMetrics } from './powertools-metrics.js';

// Parsed once, at cold start: a bad variable fails it, named in the error.
const environment = processEnvironment();
const serviceName = environment.serviceName ?? 'meridian-sync';
const powertools = new Logger({ serviceName });
const metrics = powertoolsMetrics(serviceName);
const logger = fromPowertools(powertools);
// Once per container: warm invocations reuse the DynamoDB client and the providers' cached tokens.
const deps = createAwsSyncDeps(environment, logger);
const schemaReady = awsSchemaCheck(environment, logger);

/**
 * What the EventBridge Scheduler sends (the schedule's input is `{}`); an operator invoking the
 * function by hand may name calendars.
 */
export const SyncJobEvent = z.object({ calendar_ids: z.array(z.string().min(1)).min(1).optional() });

/** Leaves calendars not yet started for the next run once less than this is left before the timeout. */
export const STOP_MARGIN_MS = 60_000;

/**
 * EventBridge Scheduler → shadow calendar sync. A failing calendar is in the summary (and the
 * log), not an error: only a failure of the run itself (the table unreachable) fails the
 * invocation.
 */
export const handler = middy<
  unknown,
  Omit<SyncSummary, 'calendars'> & { failures: SyncSummary['calendars'] }
>()
  .use(injectLambdaContext(powertools))
  .use(requireSchemaVersion(schemaReady, logger))
  .handler(async (event: unknown, context: Context) => {
    const input = SyncJobEvent.parse(event ?? {});
    const { calendars, ...totals } = await syncAndLog(await deps(), logger, {
      ...(input.calendar_ids ? { calendarIds: input.calendar_ids } : {}),
      shouldStop: () => context.getRemainingTimeInMillis() < STOP_MARGIN_MS,
    });
    // Service-wide counts only: calendar ids may carry people's addresses, never a dimension.
    metrics.publish({}, [
      { name: METRIC.syncedCalendars, unit: 'Count', value: totals.synced + totals.unchanged },
      { name: METRIC.syncFailedCalendars, unit: 'Count', value: totals.failed },
    ]);
    return { ...totals, failures: calendars.filter((c) => c.status === 'failed') };
  });
