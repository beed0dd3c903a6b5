import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import type { HttpTarget } from '../mcp/http-transport-suite.js';
import { lambdaContext, lambdaFetch, restProxyEvent } from '../support/lambda-fetch.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const ALLOWED_ORIGIN = 'https://app.example.com';

/** Counts the ERROR lines Powertools writes (as JSON, to stdout or stderr) while passing them on. */
function countErrorLines() {
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  const counter = {
    count: 0,
    restore: () => {
      streams.forEach((stream, index) => {
        stream.write = originals[index]!;
      });
    },
  };
  streams.forEach((stream, index) => {
    const original = originals[index]!;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (String(chunk).includes('"level":"ERROR"')) counter.count += 1;
      return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    }) as typeof stream.write;
  });
  return counter;
}

/** The MCP Lambda handler loaded as on Lambda, with the runtime behind it and its ERROR lines counted. */
export interface LoadedLambdaHandler {
  handler: Handler;
  runtime: TestRuntime;
  /** ERROR lines written since it was loaded. */
  loggedErrors(): number;
  close(): Promise<void>;
}

/**
 * Loads the MCP Lambda handler. The handler builds its own AWS composition from the environment,
 * as on Lambda; only the endpoint points at a local DynamoDB. KMS is configured but not called by
 * these tests. `importHandler` runs after the environment is set: the handler reads it when its
 * module loads.
 */
export async function loadLambdaHandler(
  importHandler: () => Promise<{ handler: unknown }>,
  /** The table as the container will find it: run before the handler's module loads (its cold start). */
  prepareTable?: (runtime: TestRuntime) => Promise<void>,
): Promise<LoadedLambdaHandler> {
  const dynalite = await startDynalite();
  const runtime = await startTestRuntime({ endpoint: dynalite.endpoint });
  await prepareTable?.(runtime);
  Object.assign(process.env, {
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    MERIDIAN_TIMEZONE: 'America/New_York',
    MERIDIAN_TABLE_NAME: runtime.tableName,
    MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
    MERIDIAN_BOOKING_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:meridian-booking',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynalite.endpoint,
    MERIDIAN_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
  });
  const errors = countErrorLines();
  const { handler } = (await importHandler()) as { handler: Handler };
  return {
    handler,
    runtime,
    loggedErrors: () => errors.count,
    close: async () => {
      errors.restore();
      await runtime.close();
      await dynalite.close();
    },
  };
}

/** The MCP Lambda handler (see loadLambdaHandler) as an HTTP target. */
export async function lambdaHandlerTarget(
  importHandler: () => Promise<{ handler: unknown }>,
): Promise<HttpTarget> {
  const { handler, runtime, loggedErrors, close } = await loadLambdaHandler(importHandler);
  const baseUrl = 'https://abc123.execute-api.eu-west-1.amazonaws.com';
  return {
    baseUrl,
    fetch: lambdaFetch(handler),
    allowedOrigin: ALLOWED_ORIGIN,
    send: async (method, path, init = {}) => {
      const event = restProxyEvent({
        method,
        url: new URL(path, baseUrl),
        headers: init.headers ?? {},
        body: init.body ?? null,
      });
      const result = await handler(event, lambdaContext());
      return {
        status: result.statusCode,
        headers: result.headers as Record<string, string>,
        body: result.body,
      };
    },
    loggedErrors,
    newKey: (options) => runtime.newKey('test', options),
    revokeKey: (keyId) => runtime.access.revokeKey(keyId).then(() => undefined),
    close,
  };
}
