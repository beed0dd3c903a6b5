// First: stack traces name the TypeScript sources, each map read only when an error needs it.
import './lazy-source-maps.js';
// Then: zod parses without generating code (why: zod-jitless.ts).
import './zod-jitless.js';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { BookingStep } from '../core/ports/index.js';
import { createAwsBookingSteps } from '../runtime/aws-booking-steps.js';
import { awsSchemaCheck } from '../runtime/aws-schema-version.js';
import { processEnvironment } from '../runtime/environment.js';
import { requireSchemaVersion } from './middleware/schema-version.js';
import { fromPowertools } from './powertools-logger.js';

// Parsed once, at cold start: a bad variable fails it, named in the error.
const environment = processEnvironment();
const powertools = new Logger({ serviceName: environment.serviceName ?? 'meridian' });
const logger = fromPowertools(powertools);
const steps = createAwsBookingSteps(environment, logger);
const schemaReady = awsSchemaCheck(environment, logger);

/**
 * One task of the booking state machine (lambdas/booking/booking.asl.json): the state's input in,
 * the step's output out. Thin on purpose: the step validates its payload and throws errors whose
 * `name` the state machine's Retry/Catch match; the Lambda runtime reports that name as the error
 * type, and the JSON message as the cause.
 */
function stepHandler(step: BookingStep) {
  return middy<unknown, unknown>()
    .use(injectLambdaContext(powertools))
    .use(requireSchemaVersion(schemaReady, logger))
    .handler((event) => step(event));
}

// One export per task state; lib/constructs/booking-workflow.ts points each function at one of
// these (the names are listed in lambdas/booking/booking-definition.ts).
export const lockHandler = stepHandler(steps.lock);
export const verifyHandler = stepHandler(steps.verify);
export const writeHandler = stepHandler(steps.write);
export const releaseHandler = stepHandler(steps.release);
export const compensateHandler = stepHandler(steps.compensate);
