import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { type GoogleOAuthClient, googleClientEnvironment } from './google-client.js';
import { SOURCE_MAPS_NODE_OPTIONS } from './lambda-bundling.js';

/** Environment variables naming the table and the data key (read by lambdas/runtime/aws.ts). */
export const TABLE_NAME_ENV = 'MERIDIAN_TABLE_NAME';
export const DATA_KEY_ARN_ENV = 'MERIDIAN_DATA_KEY_ARN';

/**
 * The environment every function that runs Meridian's object graph needs (the MCP function, the
 * booking steps, the sync job): where the data is, the default zone, the Google client, and
 * source maps on. Each function adds what only it needs.
 */
export function objectGraphEnvironment(props: {
  table: ITable;
  dataKey: IKey;
  defaultTimezone?: string | undefined;
  googleOAuthClient?: GoogleOAuthClient | undefined;
  serviceName: string;
}): Record<string, string> {
  return {
    ...(props.defaultTimezone === undefined ? {} : { MERIDIAN_TIMEZONE: props.defaultTimezone }),
    ...googleClientEnvironment(props.googleOAuthClient),
    [TABLE_NAME_ENV]: props.table.tableName,
    [DATA_KEY_ARN_ENV]: props.dataKey.keyArn,
    POWERTOOLS_SERVICE_NAME: props.serviceName,
    NODE_OPTIONS: SOURCE_MAPS_NODE_OPTIONS,
  };
}
