// First: stack traces name the TypeScript sources, each map read only when an error needs it.
import './lazy-source-maps.js';
// Then: zod parses without generating code (why: zod-jitless.ts).
import './zod-jitless.js';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import * as z from 'zod';
import type { DayExport } from '../core/audit/audit-export.js';
import { METRIC, METRIC_SERVICE } from '../core/metric-names.js';
import { createAwsAuditExport } from '../runtime/aws-audit-export.js';
import { awsSchemaCheck } from '../runtime/aws-schema-version.js';
import { processEnvironment } from '../runtime/environment.js';
import { requireSchemaVersion } from './middleware/schema-version.js';
import { fromPowertools } from './powertools-logger.js';
import { powertoolsMetrics } from './powertools-metrics.js';

// Parsed once, at cold start: a bad variable fails it, named in the error.
const environment = processEnvironment();
const serviceName = environment.serviceName ?? METRIC_SERVICE.auditExport;
const powertools = new Logger({ serviceName });
const metrics = powertoolsMetrics(serviceName);
const logger = fromPowertools(powertools);
const exportAudit = createAwsAuditExport(environment, logger);
const schemaReady = awsSchemaCheck(environment, logger);

/**
 * What the EventBridge Scheduler sends (the schedule's input is `{}`: yesterday and today); an
 * operator invoking the function by hand may name the days.
 */
export const AuditExportEvent = z.object({
  days: z
    .array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC date, YYYY-MM-DD'))
    .min(1)
    .max(31)
    .optional(),
});

/**
 * EventBridge Scheduler → the audit log's export to the Object Lock bucket. A chain that does not
 * verify is exported as found and listed in `failures` (the summary the schedule's alarms and
 * the deploy rehearsal read) and counted in the `AuditExportFailures` metric that alarms on it;
 * failing to read the table or write the bucket fails the invocation (Lambda's Errors metric).
 */
export const handler = middy<unknown, { exported: DayExport[]; failures: DayExport[] }>()
  .use(injectLambdaContext(powertools))
  .use(requireSchemaVersion(schemaReady, logger))
  .handler(async (event: unknown) => {
    const input = AuditExportEvent.parse(event ?? {});
    const exported = await exportAudit(input.days);
    const failures = exported.filter((day) => day.problems > 0);
    metrics.publish({}, [{ name: METRIC.auditExportFailures, unit: 'Count', value: failures.length }]);
    return { exported, failures };
  });
