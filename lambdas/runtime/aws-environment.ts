import { TIMEZONE_ENV } from './environment-names.js';

/**
 * The environment the CDK stack gives Meridian's functions, read without importing anything
 * heavy: the MCP function reads it during its cold start, before the object graph is loaded.
 * The variables' names are in environment-names.ts.
 */

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
  return env[TIMEZONE_ENV]?.trim() || undefined;
}
