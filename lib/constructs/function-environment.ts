import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  DATA_KEY_ARN_ENV,
  SERVICE_NAME_ENV,
  TABLE_NAME_ENV,
  TIMEZONE_ENV,
} from '../../lambdas/runtime/environment-names.js';
import { type GoogleOAuthClient, googleClientEnvironment } from './google-client.js';
import { type OutlookApp, outlookAppEnvironment } from './outlook-app.js';

/**
 * The environment every function that runs Meridian's object graph needs (the MCP function, the
 * booking steps, the sync job): where the data is, the default zone, the Google client and the
 * Microsoft app. Each function adds what only it needs. No `--enable-source-maps`: each entry
 * maps its stack traces itself, reading a map only when an error needs it
 * (lambdas/handlers/lazy-source-maps.ts).
 */
export function objectGraphEnvironment(props: {
  table: ITable;
  dataKey: IKey;
  defaultTimezone?: string | undefined;
  googleOAuthClient?: GoogleOAuthClient | undefined;
  outlookApp?: OutlookApp | undefined;
  serviceName: string;
}): Record<string, string> {
  return {
    ...(props.defaultTimezone === undefined ? {} : { [TIMEZONE_ENV]: props.defaultTimezone }),
    ...googleClientEnvironment(props.googleOAuthClient),
    ...outlookAppEnvironment(props.outlookApp),
    [TABLE_NAME_ENV]: props.table.tableName,
    [DATA_KEY_ARN_ENV]: props.dataKey.keyArn,
    [SERVICE_NAME_ENV]: props.serviceName,
  };
}
