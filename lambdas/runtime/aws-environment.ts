/**
 * The environment the CDK stack gives Meridian's functions, read without importing anything
 * heavy: the MCP function reads it during its cold start, before the object graph is loaded.
 */

/** The table the document store reads and writes (set on every function by lib/constructs). */
export const TABLE_NAME_ENV = 'MERIDIAN_TABLE_NAME';
/** The KMS key that wraps the Encryption SDK's data keys (set on every function). */
export const DATA_KEY_ARN_ENV = 'MERIDIAN_DATA_KEY_ARN';
/** The bucket the blob store keeps project memory in (set on the MCP function). */
export const MEMORY_BUCKET_NAME_ENV = 'MERIDIAN_MEMORY_BUCKET_NAME';
/** Environment variable carrying the booking state machine's ARN (set on the MCP function). */
export const BOOKING_STATE_MACHINE_ARN_ENV = 'MERIDIAN_BOOKING_STATE_MACHINE_ARN';

/** A variable the stack always sets; its absence is a deployment fault, reported by name. */
export function requiredEnv(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value)
    throw new Error(
      `${name} is not set: the CDK stack sets it on its functions; for \`meridian --aws\` take it from the stack outputs.`,
    );
  return value;
}

/** MERIDIAN_TIMEZONE, or undefined when unset. */
export function configuredTimezone(env: NodeJS.ProcessEnv): string | undefined {
  return env.MERIDIAN_TIMEZONE?.trim() || undefined;
}

/** Browser origins allowed to call MCP (comma-separated); both runtimes read the same variable. */
export const ALLOWED_ORIGINS_ENV = 'MERIDIAN_ALLOWED_ORIGINS';
