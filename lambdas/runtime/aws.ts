import { once } from '../core/once.js';
import type { BookingWorkflow, Logger } from '../core/ports/index.js';
import { requiredEnv } from './aws-environment.js';
import { awsPlatform, type SharedClients } from './aws-platform.js';
import { composeDeps } from './compose.js';
import { requestGuards } from './compose-guards.js';
import { BOOKING_STATE_MACHINE_ARN_ENV } from './environment-names.js';

/**
 * Composition root of the AWS runtime: built once per Lambda container, outside the handler, so
 * warm invocations reuse clients and cached provider tokens. Fails the cold start loudly on bad
 * configuration rather than on the first tool call. book_slot starts the Express state machine
 * named by MERIDIAN_BOOKING_STATE_MACHINE_ARN.
 */
export function createAwsDeps(env: NodeJS.ProcessEnv, logger: Logger, shared: SharedClients = {}) {
  const stateMachineArn = requiredEnv(env, BOOKING_STATE_MACHINE_ARN_ENV);
  // The Step Functions client loads on the first booking: a calendar call never needs it.
  const workflow = once(async () => {
    const [{ SFNClient }, { SfnBookingWorkflow }] = await Promise.all([
      import('@aws-sdk/client-sfn'),
      import('../adapters/workflow/sfn-booking-workflow.js'),
    ]);
    return new SfnBookingWorkflow({ client: new SFNClient({}), stateMachineArn });
  });
  const booking: BookingWorkflow = { book: async (input) => (await workflow()).book(input) };
  return composeDeps({ ...awsPlatform(env, logger, shared), booking: () => booking });
}

/**
 * The deployed table and key administered from a workstation with the caller's AWS credentials:
 * `meridian --aws keys|grants|calendars|connect|sync`, with MERIDIAN_TABLE_NAME and
 * MERIDIAN_DATA_KEY_ARN from the data stack's outputs. No booking workflow: the CLI never books.
 */
export function createAwsAdminRuntime(env: NodeJS.ProcessEnv, logger: Logger) {
  const deps = composeDeps(awsPlatform(env, logger));
  // Keys and grants changed from a workstation are audited as the Lambda's writes are.
  return { ...deps, ...requestGuards(deps, env), close: async () => undefined };
}
