import type { AwsConnection } from '../adapters/dynamodb/dynamodb-http-client.js';
import * as NAMES from './environment-names.js';

/** The variables an {@link AwsConnection} is read from. */
type AwsVariables = {
  readonly [Name in
    | typeof NAMES.AWS_REGION_ENV
    | typeof NAMES.AWS_DEFAULT_REGION_ENV
    | typeof NAMES.AWS_ACCESS_KEY_ID_ENV
    | typeof NAMES.AWS_SECRET_ACCESS_KEY_ENV
    | typeof NAMES.AWS_SESSION_TOKEN_ENV
    | typeof NAMES.AWS_ENDPOINT_URL_DYNAMODB_ENV
    | typeof NAMES.AWS_ENDPOINT_URL_ENV
    | typeof NAMES.AWS_USE_FIPS_ENDPOINT_ENV]?: string | undefined;
};

/**
 * How the table's client reaches DynamoDB, from the variables Lambda sets on every function (ADR
 * 0028): AWS_REGION (else AWS_DEFAULT_REGION), the role's keys with its session token,
 * AWS_ENDPOINT_URL_DYNAMODB (else AWS_ENDPOINT_URL) and AWS_USE_FIPS_ENDPOINT. The one reading of
 * them: environment.ts takes it beside the rest of the environment, and the cold-start floors
 * (bench/fixtures/table-client.ts) alone, so that a floor parses nothing else.
 *
 * @example
 * awsConnectionFrom(process.env); // { region: 'eu-west-1', credentials: { … }, endpoint: undefined, fips: false }
 */
export function awsConnectionFrom(vars: AwsVariables): AwsConnection {
  const value = (name: keyof AwsVariables) => vars[name]?.trim() || undefined;
  const accessKeyId = value(NAMES.AWS_ACCESS_KEY_ID_ENV);
  const secretAccessKey = value(NAMES.AWS_SECRET_ACCESS_KEY_ENV);
  return {
    region: value(NAMES.AWS_REGION_ENV) ?? value(NAMES.AWS_DEFAULT_REGION_ENV),
    credentials:
      accessKeyId && secretAccessKey
        ? { accessKeyId, secretAccessKey, sessionToken: value(NAMES.AWS_SESSION_TOKEN_ENV) }
        : undefined,
    endpoint: value(NAMES.AWS_ENDPOINT_URL_DYNAMODB_ENV) ?? value(NAMES.AWS_ENDPOINT_URL_ENV),
    fips: value(NAMES.AWS_USE_FIPS_ENDPOINT_ENV) === 'true',
  };
}
