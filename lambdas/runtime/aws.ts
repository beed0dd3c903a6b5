import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbDocumentStore } from '../adapters/dynamodb/dynamodb-document-store.js';
import { systemClock } from '../core/ports.js';
import { requireZone } from '../core/time/zones.js';
import type { Logger } from '../mcp/deps.js';
import { composeDeps } from './compose.js';
import { lazyEnvelope } from './lazy-envelope.js';
import { nodeRandom } from './node-random.js';
import { providerFactories } from './provider-factories.js';
import { VERSION } from './version.js';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value)
    throw new Error(`${name} is not set: the CDK stack sets it on the function; check the deployment.`);
  return value;
}

/**
 * Composition root of the AWS runtime: built once per Lambda container, outside the handler, so
 * warm invocations reuse clients and cached provider tokens. Fails the cold start loudly on bad
 * configuration rather than on the first tool call.
 */
export function createAwsDeps(env: NodeJS.ProcessEnv, logger: Logger) {
  const timezone = env.MERIDIAN_TIMEZONE?.trim() || undefined;
  if (timezone !== undefined) requireZone(timezone, 'MERIDIAN_TIMEZONE');
  const dataKeyArn = required(env, 'MERIDIAN_DATA_KEY_ARN');
  return composeDeps({
    store: new DynamoDbDocumentStore({
      client: new DynamoDBClient({}),
      tableName: required(env, 'MERIDIAN_TABLE_NAME'),
    }),
    encryption: lazyEnvelope(async () => {
      const { EncryptionSdkEnvelope, kmsKeyring } = await import(
        '../adapters/encryption/encryption-sdk-envelope.js'
      );
      return new EncryptionSdkEnvelope(kmsKeyring(dataKeyArn));
    }),
    clock: systemClock,
    random: nodeRandom,
    logger,
    version: VERSION,
    defaultTimezone: timezone,
    factories: providerFactories(env),
  });
}
