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

/**
 * An IANA zone as the runtime's Intl knows it, checked without loading luxon (a cold start need
 * not); the full check (with suggestions) runs at synth and when the object graph is built.
 */
export function checkZone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new Error(`${TIMEZONE_ENV} "${timezone}" is not an IANA time zone (e.g. "Europe/Paris").`);
  }
}
