import { delimiter } from 'node:path';
import * as z from 'zod';
import type { AwsConnection } from '../adapters/dynamodb/dynamodb-http-client.js';
import { parseRate, type RateLimits, type RateSetting } from '../core/limits/rate.js';
import type { CallLimits } from '../mcp/call-limits.js';
import { parseAllowedOrigins } from '../mcp/http/origin-policy.js';
import { awsConnectionFrom } from './aws-connection.js';
import { intervalMs, oneOf, optionalText, wholeNumber } from './environment-fields.js';
import * as NAMES from './environment-names.js';
import { type SignInSettings, signInIssuer, signInProblems, signInSettings } from './sign-in-environment.js';
import { zoneProblem } from './zone-setting.js';

/**
 * Every environment variable Meridian reads, parsed once, with zod, by {@link parseEnvironment}:
 * each entry point (each Lambda handler, `meridian`) calls it once at start-up and hands the typed
 * {@link Environment} to the wiring (slices.ts). Nothing else in lambdas/ or bin/ reads
 * process.env. Light on purpose: the MCP function parses it during its cold start.
 */

/** The seconds a booking's hold lasts: it must outlive verify + write; an Express execution lasts ≤ 5 min. */
export const LOCK_TTL_RANGE = { min: 5, max: 300 } as const;
export const DEFAULT_LOCK_TTL_SECONDS = 30;
/** The cadence of `serve`'s calendar sync and of the idle-memory sweep (the AWS schedules' default too). */
export const DEFAULT_SYNC_INTERVAL_MINUTES = 5;
export const DEFAULT_MEMORY_COMPRESSION_INTERVAL_MINUTES = 5;
export const TITAN_DIMENSIONS = [1024, 512, 256] as const;

/** Budgets when nothing is configured: generous for an agent, a stop for a runaway loop. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  requests: { capacity: 600, periodSeconds: 60 },
  expensive: { capacity: 60, periodSeconds: 60 },
};

/** `COUNT/PERIOD` or `off` (core/limits/rate.ts); a bad value names the variable. */
const rateSetting = (name: string) =>
  optionalText.transform((text, context): RateSetting | undefined => {
    if (text === undefined) return undefined;
    try {
      return parseRate(text, name);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

const Variables = z
  .object({
    [NAMES.RATE_LIMIT_ENV]: rateSetting(NAMES.RATE_LIMIT_ENV),
    [NAMES.EXPENSIVE_RATE_LIMIT_ENV]: rateSetting(NAMES.EXPENSIVE_RATE_LIMIT_ENV),
    [NAMES.AUDIT_ENV]: oneOf(NAMES.AUDIT_ENV, ['on', 'off'], 'on'),
    [NAMES.PUBLIC_URL_ENV]: optionalText.transform((text, context) => {
      if (text === undefined) return undefined;
      const url = URL.canParse(text) ? new URL(text) : undefined;
      if (url && /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash)
        return url.origin;
      context.addIssue({
        code: 'custom',
        message: `${NAMES.PUBLIC_URL_ENV}: "${text}" is not an origin. Expected e.g. "https://meridian.example.com".`,
      });
      return z.NEVER;
    }),
    [NAMES.OAUTH_TOKENS_ENV]: oneOf(NAMES.OAUTH_TOKENS_ENV, ['on', 'off'], 'off'),
    [NAMES.SIGN_IN_ISSUER_ENV]: signInIssuer,
    [NAMES.SIGN_IN_CLIENT_ID_ENV]: optionalText,
    [NAMES.SIGN_IN_CLIENT_SECRET_ENV]: optionalText,
    [NAMES.SIGN_IN_CLIENT_SECRET_ARN_ENV]: optionalText,
    // npm sets it for the scripts it runs: `npm start` is watched so the server stops with npm.
    npm_lifecycle_event: optionalText,
    [NAMES.TABLE_NAME_ENV]: optionalText,
    [NAMES.AWS_REGION_ENV]: optionalText,
    [NAMES.AWS_DEFAULT_REGION_ENV]: optionalText,
    [NAMES.AWS_ACCESS_KEY_ID_ENV]: optionalText,
    [NAMES.AWS_SECRET_ACCESS_KEY_ENV]: optionalText,
    [NAMES.AWS_SESSION_TOKEN_ENV]: optionalText,
    [NAMES.AWS_ENDPOINT_URL_DYNAMODB_ENV]: optionalText,
    [NAMES.AWS_ENDPOINT_URL_ENV]: optionalText,
    [NAMES.AWS_USE_FIPS_ENDPOINT_ENV]: optionalText,
    [NAMES.DATA_KEY_ARN_ENV]: optionalText,
    [NAMES.BOOKING_STATE_MACHINE_ARN_ENV]: optionalText,
    [NAMES.MEMORY_BUCKET_NAME_ENV]: optionalText,
    [NAMES.AUDIT_EXPORT_BUCKET_ENV]: optionalText,
    [NAMES.EMBEDDINGS_ENV]: oneOf(NAMES.EMBEDDINGS_ENV, ['local', 'bedrock'], 'local'),
    [NAMES.EMBEDDING_DIMENSION_ENV]: optionalText.transform((text, context) => {
      const dimension = Number(text ?? TITAN_DIMENSIONS[0]);
      if ((TITAN_DIMENSIONS as readonly number[]).includes(dimension))
        return dimension as (typeof TITAN_DIMENSIONS)[number];
      context.addIssue({
        code: 'custom',
        message: `${NAMES.EMBEDDING_DIMENSION_ENV} must be 1024, 512 or 256 for bedrock (got "${text}").`,
      });
      return z.NEVER;
    }),
    [NAMES.BEDROCK_ENDPOINT_ENV]: optionalText,
    [NAMES.SERVICE_NAME_ENV]: optionalText,
    [NAMES.TIMEZONE_ENV]: optionalText.transform((zone, context) => {
      const problem = zone === undefined ? undefined : zoneProblem(NAMES.TIMEZONE_ENV, zone);
      if (problem) context.addIssue({ code: 'custom', message: problem });
      return zone;
    }),
    [NAMES.ALLOWED_ORIGINS_ENV]: z
      .string()
      .optional()
      .transform((text, context) => {
        try {
          return parseAllowedOrigins(text, NAMES.ALLOWED_ORIGINS_ENV);
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    [NAMES.CALL_DEADLINE_SECONDS_ENV]: wholeNumber(
      1,
      900,
      undefined,
      (got) => `${NAMES.CALL_DEADLINE_SECONDS_ENV} must be a whole number from 1 to 900; got "${got}".`,
    ),
    [NAMES.CALL_WORK_ITEMS_ENV]: wholeNumber(
      1_000,
      10_000_000,
      undefined,
      (got) => `${NAMES.CALL_WORK_ITEMS_ENV} must be a whole number from 1000 to 10000000; got "${got}".`,
    ),
    [NAMES.MEMORY_MAX_ITEMS_ENV]: wholeNumber(
      100,
      10_000_000,
      undefined,
      (got) => `${NAMES.MEMORY_MAX_ITEMS_ENV} must be a whole number from 100 to 10000000; got "${got}".`,
    ),
    [NAMES.LOCK_TTL_SECS_ENV]: wholeNumber(
      LOCK_TTL_RANGE.min,
      LOCK_TTL_RANGE.max,
      DEFAULT_LOCK_TTL_SECONDS,
      (got) =>
        `${NAMES.LOCK_TTL_SECS_ENV} must be a whole number of seconds from ${LOCK_TTL_RANGE.min} to ${LOCK_TTL_RANGE.max} (got "${got}").`,
    ),
    [NAMES.GOOGLE_CLIENT_ID_ENV]: optionalText,
    [NAMES.GOOGLE_CLIENT_SECRET_ENV]: optionalText,
    [NAMES.GOOGLE_API_ROOT_ENV]: optionalText,
    [NAMES.GOOGLE_TOKEN_URL_ENV]: optionalText,
    [NAMES.GOOGLE_AUTH_URL_ENV]: optionalText,
    [NAMES.OUTLOOK_CLIENT_ID_ENV]: optionalText,
    [NAMES.OUTLOOK_AUTHORITY_ENV]: optionalText,
    [NAMES.OUTLOOK_GRAPH_ROOT_ENV]: optionalText,
    [NAMES.DATA_DIR_ENV]: optionalText,
    [NAMES.HTTP_HOST_ENV]: optionalText,
    // Checked with the --port flag that overrides it (config.ts): one message for both.
    [NAMES.HTTP_PORT_ENV]: optionalText,
    [NAMES.SYNC_INTERVAL_MINUTES_ENV]: intervalMs(
      NAMES.SYNC_INTERVAL_MINUTES_ENV,
      DEFAULT_SYNC_INTERVAL_MINUTES,
    ),
    [NAMES.MEMORY_COMPRESSION_INTERVAL_MINUTES_ENV]: intervalMs(
      NAMES.MEMORY_COMPRESSION_INTERVAL_MINUTES_ENV,
      DEFAULT_MEMORY_COMPRESSION_INTERVAL_MINUTES,
    ),
    [NAMES.SCAN_FOLDERS_ENV]: z
      .string()
      .optional()
      .transform((text) => (text ?? '').split(delimiter).filter((entry) => entry.trim() !== '')),
    // A password is taken as typed: spaces may be part of it.
    [NAMES.CALDAV_PASSWORD_ENV]: z.string().optional(),
    [NAMES.CI_ENV]: optionalText.transform((text) => {
      const value = text?.toLowerCase();
      return value !== undefined && value !== 'false' && value !== '0';
    }),
    [NAMES.MEMORY_SYNC_BUCKET_ENV]: optionalText,
    [NAMES.MEMORY_SYNC_ENDPOINT_ENV]: optionalText,
    [NAMES.MEMORY_SYNC_KMS_KEY_ARN_ENV]: optionalText,
    [NAMES.MEMORY_SYNC_KEY_FILE_ENV]: optionalText,
    [NAMES.MEMORY_SYNC_UPLOADS_PER_DAY_ENV]: wholeNumber(
      0,
      Number.MAX_SAFE_INTEGER,
      100,
      (got) =>
        `${NAMES.MEMORY_SYNC_UPLOADS_PER_DAY_ENV} must be a whole number of syncs per day, 0 or more (got "${got}").`,
    ),
    [NAMES.MEMORY_SYNC_DOWNLOADS_PER_DAY_ENV]: wholeNumber(
      0,
      Number.MAX_SAFE_INTEGER,
      20,
      (got) =>
        `${NAMES.MEMORY_SYNC_DOWNLOADS_PER_DAY_ENV} must be a whole number of syncs per day, 0 or more (got "${got}").`,
    ),
  })
  .superRefine((vars, context) => {
    for (const message of signInProblems(signInVariables(vars)))
      context.addIssue({ code: 'custom', path: [NAMES.SIGN_IN_ISSUER_ENV], message });
    const bucket = vars[NAMES.MEMORY_SYNC_BUCKET_ENV];
    const keys = [vars[NAMES.MEMORY_SYNC_KMS_KEY_ARN_ENV], vars[NAMES.MEMORY_SYNC_KEY_FILE_ENV]];
    if (bucket !== undefined && keys.filter((key) => key !== undefined).length !== 1)
      context.addIssue({
        code: 'custom',
        path: [NAMES.MEMORY_SYNC_BUCKET_ENV],
        message:
          `${NAMES.MEMORY_SYNC_BUCKET_ENV} is set: set exactly one of ${NAMES.MEMORY_SYNC_KMS_KEY_ARN_ENV} (a KMS key ARN) or ` +
          `${NAMES.MEMORY_SYNC_KEY_FILE_ENV} (a key file path) to encrypt what is uploaded.`,
      });
  });

type Variables = z.output<typeof Variables>;

/** The MERIDIAN_SIGN_IN_* values, by what they are (sign-in-environment.ts checks them whole). */
function signInVariables(vars: Readonly<Record<string, unknown>>) {
  const text = (name: string) => vars[name] as string | undefined;
  return {
    issuer: text(NAMES.SIGN_IN_ISSUER_ENV),
    clientId: text(NAMES.SIGN_IN_CLIENT_ID_ENV),
    clientSecret: text(NAMES.SIGN_IN_CLIENT_SECRET_ENV),
    clientSecretArn: text(NAMES.SIGN_IN_CLIENT_SECRET_ARN_ENV),
  };
}

/** The organisation's bucket project memory syncs through, and how it encrypts what it uploads. */
export interface MemorySyncSettings {
  bucket: string;
  endpoint: string | undefined;
  key: { kmsKeyArn: string } | { keyFile: string };
  quotas: { uploadsPerDay: number; downloadsPerDay: number };
}

/** The environment, typed: what every runtime is configured with. */
export interface Environment {
  /** The deployed table, KMS key, state machine and memory bucket: set by the CDK stack. */
  tableName: string | undefined;
  /** How the table's client reaches DynamoDB, from the variables Lambda sets (ADR 0028). */
  awsConnection: AwsConnection;
  dataKeyArn: string | undefined;
  bookingStateMachineArn: string | undefined;
  memoryBucketName: string | undefined;
  auditExportBucketName: string | undefined;
  embeddings:
    | { choice: 'local' }
    | { choice: 'bedrock'; dimension: (typeof TITAN_DIMENSIONS)[number]; endpoint: string | undefined };
  /** Powertools' service name; each handler has its own default. */
  serviceName: string | undefined;
  /** The default IANA zone, checked; undefined: UTC. */
  timezone: string | undefined;
  allowedOrigins: string[];
  /** The limits set; a server fills in the rest from DEFAULT_CALL_LIMITS (mcp/call-limits.ts). */
  callLimits: Partial<CallLimits>;
  /** @default - MemoryStore's own (DEFAULT_MEMORY_ITEMS_CAP) */
  memoryItemsCap: number | undefined;
  lockTtlSeconds: number;
  /** The Google OAuth client, when both its id and secret are set. */
  google:
    | {
        clientId: string;
        clientSecret: string;
        apiRoot: string | undefined;
        tokenUrl: string | undefined;
        authorizationUrl: string | undefined;
      }
    | undefined;
  /** The Microsoft app registration for Outlook calendars, when its client id is set. */
  outlook: { clientId: string; authority: string; graphRoot: string | undefined } | undefined;
  /** The embedded runtime's settings, before flags override them (config.ts). */
  dataDir: string | undefined;
  host: string | undefined;
  port: string | undefined;
  scanFolders: string[];
  /** Milliseconds between runs of `serve`'s timers; undefined: off. */
  syncIntervalMs: number | undefined;
  memoryCompressionIntervalMs: number | undefined;
  caldavPassword: string | undefined;
  /** Under a CI system (`CI` set, not false/0): plain lines, no progress bars. */
  ci: boolean;
  memorySync: MemorySyncSettings | undefined;
  /** Per-caller budgets (MERIDIAN_RATE_LIMIT, MERIDIAN_EXPENSIVE_RATE_LIMIT), defaults filled in. */
  rateLimits: RateLimits;
  /** MERIDIAN_AUDIT: the audit log of every change (off only for benchmarks). */
  audit: boolean;
  /** MERIDIAN_PUBLIC_URL: the origin clients reach `serve` at behind a proxy (the OAuth issuer). */
  publicUrl: string | undefined;
  /** MERIDIAN_OAUTH_TOKENS=on: the MCP function accepts the deployed authorization server's tokens. */
  oauthTokens: boolean;
  /** MERIDIAN_SIGN_IN_*: the organization's OpenID Connect issuer people sign in at; none: passwords. */
  signIn: SignInSettings | undefined;
  /** Started by an npm script (`npm start`). */
  startedByNpm: boolean;
}

function environmentOf(vars: Variables): Environment {
  const clientId = vars[NAMES.GOOGLE_CLIENT_ID_ENV];
  const clientSecret = vars[NAMES.GOOGLE_CLIENT_SECRET_ENV];
  const bucket = vars[NAMES.MEMORY_SYNC_BUCKET_ENV];
  const kmsKeyArn = vars[NAMES.MEMORY_SYNC_KMS_KEY_ARN_ENV];
  const keyFile = vars[NAMES.MEMORY_SYNC_KEY_FILE_ENV];
  const deadlineSeconds = vars[NAMES.CALL_DEADLINE_SECONDS_ENV];
  return {
    tableName: vars[NAMES.TABLE_NAME_ENV],
    awsConnection: awsConnectionFrom(vars),
    dataKeyArn: vars[NAMES.DATA_KEY_ARN_ENV],
    bookingStateMachineArn: vars[NAMES.BOOKING_STATE_MACHINE_ARN_ENV],
    memoryBucketName: vars[NAMES.MEMORY_BUCKET_NAME_ENV],
    auditExportBucketName: vars[NAMES.AUDIT_EXPORT_BUCKET_ENV],
    embeddings:
      vars[NAMES.EMBEDDINGS_ENV] === 'local'
        ? { choice: 'local' }
        : {
            choice: 'bedrock',
            dimension: vars[NAMES.EMBEDDING_DIMENSION_ENV],
            endpoint: vars[NAMES.BEDROCK_ENDPOINT_ENV],
          },
    serviceName: vars[NAMES.SERVICE_NAME_ENV],
    timezone: vars[NAMES.TIMEZONE_ENV],
    allowedOrigins: vars[NAMES.ALLOWED_ORIGINS_ENV],
    callLimits: {
      ...(deadlineSeconds === undefined ? {} : { deadlineMs: deadlineSeconds * 1000 }),
      ...(vars[NAMES.CALL_WORK_ITEMS_ENV] === undefined
        ? {}
        : { workItems: vars[NAMES.CALL_WORK_ITEMS_ENV] }),
    },
    memoryItemsCap: vars[NAMES.MEMORY_MAX_ITEMS_ENV],
    lockTtlSeconds: vars[NAMES.LOCK_TTL_SECS_ENV],
    google:
      clientId && clientSecret
        ? {
            clientId,
            clientSecret,
            // Overrides exist for tests and private deployments that proxy Google; unset in normal use.
            apiRoot: vars[NAMES.GOOGLE_API_ROOT_ENV],
            tokenUrl: vars[NAMES.GOOGLE_TOKEN_URL_ENV],
            authorizationUrl: vars[NAMES.GOOGLE_AUTH_URL_ENV],
          }
        : undefined,
    outlook: vars[NAMES.OUTLOOK_CLIENT_ID_ENV]
      ? {
          clientId: vars[NAMES.OUTLOOK_CLIENT_ID_ENV],
          authority: vars[NAMES.OUTLOOK_AUTHORITY_ENV] ?? 'https://login.microsoftonline.com/organizations',
          graphRoot: vars[NAMES.OUTLOOK_GRAPH_ROOT_ENV],
        }
      : undefined,
    dataDir: vars[NAMES.DATA_DIR_ENV],
    host: vars[NAMES.HTTP_HOST_ENV],
    port: vars[NAMES.HTTP_PORT_ENV],
    scanFolders: vars[NAMES.SCAN_FOLDERS_ENV],
    syncIntervalMs: vars[NAMES.SYNC_INTERVAL_MINUTES_ENV],
    memoryCompressionIntervalMs: vars[NAMES.MEMORY_COMPRESSION_INTERVAL_MINUTES_ENV],
    caldavPassword: vars[NAMES.CALDAV_PASSWORD_ENV],
    ci: vars[NAMES.CI_ENV],
    rateLimits: {
      requests: vars[NAMES.RATE_LIMIT_ENV] ?? DEFAULT_RATE_LIMITS.requests,
      expensive: vars[NAMES.EXPENSIVE_RATE_LIMIT_ENV] ?? DEFAULT_RATE_LIMITS.expensive,
    },
    audit: vars[NAMES.AUDIT_ENV] === 'on',
    publicUrl: vars[NAMES.PUBLIC_URL_ENV],
    oauthTokens: vars[NAMES.OAUTH_TOKENS_ENV] === 'on',
    signIn: signInSettings(signInVariables(vars)),
    startedByNpm: vars.npm_lifecycle_event !== undefined,
    memorySync: bucket
      ? {
          bucket,
          endpoint: vars[NAMES.MEMORY_SYNC_ENDPOINT_ENV],
          key: kmsKeyArn ? { kmsKeyArn } : { keyFile: keyFile! },
          quotas: {
            uploadsPerDay: vars[NAMES.MEMORY_SYNC_UPLOADS_PER_DAY_ENV],
            downloadsPerDay: vars[NAMES.MEMORY_SYNC_DOWNLOADS_PER_DAY_ENV],
          },
        }
      : undefined,
  };
}

/** A variable set to something Meridian cannot use; the message names each one and what it expects. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid environment: ${problems.join(' ')}`);
  }
}

/**
 * Parses the environment (process.env, or a test's record) into an {@link Environment}: defaults
 * filled in, every value checked. Throws an {@link EnvironmentError} naming every variable that is
 * wrong and what it accepts, so a misconfigured function fails its cold start and `meridian`
 * stops before it opens anything.
 *
 * @example
 * parseEnvironment({ LOCK_TTL_SECS: '45' }).lockTtlSeconds; // 45
 */
export function parseEnvironment(env: Readonly<Record<string, string | undefined>>): Environment {
  // Parsed once per process: zod's eval-compiled fast path for objects would cost more to
  // generate and compile than it saves (about 19 M instructions of a cold start, counted).
  const parsed = Variables.safeParse(env, { jitless: true });
  if (!parsed.success) throw new EnvironmentError(parsed.error.issues.map((issue) => issue.message));
  return environmentOf(parsed.data);
}

/** This process's environment, parsed: what entry points call (the only reader of process.env). */
export function processEnvironment(): Environment {
  return parseEnvironment(process.env);
}

/** The settings the CDK stack always sets on a function, by the variable that carries each. */
const STACK_SETTINGS = {
  tableName: NAMES.TABLE_NAME_ENV,
  dataKeyArn: NAMES.DATA_KEY_ARN_ENV,
  bookingStateMachineArn: NAMES.BOOKING_STATE_MACHINE_ARN_ENV,
  memoryBucketName: NAMES.MEMORY_BUCKET_NAME_ENV,
  auditExportBucketName: NAMES.AUDIT_EXPORT_BUCKET_ENV,
} as const;

type StackSetting = keyof typeof STACK_SETTINGS;

/**
 * The stack-set settings a runtime cannot start without, or an {@link EnvironmentError} naming
 * each one missing (a deployment fault, or `meridian --aws` without the stack outputs).
 *
 * @example
 * const { tableName } = requireSettings(environment, ['tableName', 'dataKeyArn']);
 */
export function requireSettings<Key extends StackSetting>(
  environment: Environment,
  keys: readonly Key[],
): { [K in Key]: string } {
  const missing = keys.filter((key) => environment[key] === undefined);
  if (missing.length > 0)
    throw new EnvironmentError(
      missing.map(
        (key) =>
          `${STACK_SETTINGS[key]} is not set: the CDK stack sets it on its functions; for \`meridian --aws\` take it from the stack outputs.`,
      ),
    );
  return Object.fromEntries(keys.map((key) => [key, environment[key]])) as { [K in Key]: string };
}
