import type { Logger } from '../core/ports/index.js';
import { awsPlatform } from './aws-platform.js';
import { composeDeps } from './compose.js';
import { requestGuards } from './compose-guards.js';
import { type Environment, requireSettings } from './environment.js';

/**
 * The deployed table and key administered from a workstation with the caller's AWS credentials:
 * `meridian --aws keys|grants|calendars|connect|sync`, with MERIDIAN_TABLE_NAME and
 * MERIDIAN_DATA_KEY_ARN from the data stack's outputs. No booking workflow: the CLI never books.
 */
export async function createAwsAdminRuntime(environment: Environment, logger: Logger) {
  requireSettings(environment, ['tableName', 'dataKeyArn']);
  const deps = await composeDeps(awsPlatform(environment, logger));
  // Keys and grants changed from a workstation are audited as the Lambda's writes are.
  return { ...deps, ...requestGuards(deps, environment), environment, close: async () => undefined };
}
