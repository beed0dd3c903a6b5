/**
 * A misconfigured function fails its cold start, naming the variable: each handler module parses
 * the environment once when Lambda loads it (lambdas/runtime/environment.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** What the stack sets on every function, pointed nowhere: no test here reaches the table. */
const STACK = {
  MERIDIAN_TABLE_NAME: 'meridian-test',
  MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
  MERIDIAN_BOOKING_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:booking',
  MERIDIAN_MEMORY_BUCKET_NAME: 'meridian-memory',
  MERIDIAN_AUDIT_EXPORT_BUCKET: 'meridian-audit-exports',
  AWS_REGION: 'eu-west-1',
};

const HANDLERS = {
  'the MCP function': () => import('../../lambdas/handlers/mcp-http.js'),
  'the booking steps': () => import('../../lambdas/handlers/booking-steps.js'),
  'the sync function': () => import('../../lambdas/handlers/sync-job.js'),
  'the memory compression function': () => import('../../lambdas/handlers/memory-compression-job.js'),
  'the audit export function': () => import('../../lambdas/handlers/audit-export-job.js'),
};

function stubEnvironment(variables: Record<string, string>) {
  for (const [name, value] of Object.entries({ ...STACK, ...variables })) vi.stubEnv(name, value);
}

describe('a handler’s cold start', () => {
  beforeEach(() => {
    // A fresh module per load: each one reads the environment as a new container would.
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  for (const [name, load] of Object.entries(HANDLERS)) {
    it(`loads ${name} with the stack’s variables`, async () => {
      stubEnvironment({});

      await expect(load()).resolves.toHaveProperty(name === 'the booking steps' ? 'lockHandler' : 'handler');
    });

    it(`fails ${name} on a bad variable, naming it and what it accepts`, async () => {
      stubEnvironment({ MERIDIAN_TIMEZONE: 'Europe/Pariss' });

      await expect(load()).rejects.toThrow(
        /Invalid environment: MERIDIAN_TIMEZONE "Europe\/Pariss" is not an IANA time zone.*Europe\/Paris/,
      );
    });
  }

  it('fails the booking steps on a hold lifetime out of range', async () => {
    stubEnvironment({ LOCK_TTL_SECS: '301' });

    await expect(HANDLERS['the booking steps']()).rejects.toThrow(
      'LOCK_TTL_SECS must be a whole number of seconds from 5 to 300 (got "301").',
    );
  });

  it('fails the MCP function on a browser origin that is not an origin', async () => {
    stubEnvironment({ MERIDIAN_ALLOWED_ORIGINS: 'https://app.example.com/path' });

    await expect(HANDLERS['the MCP function']()).rejects.toThrow(
      'MERIDIAN_ALLOWED_ORIGINS: "https://app.example.com/path" is not an origin.',
    );
  });

  it('loads the OAuth function with its issuer, and fails it without one, naming MERIDIAN_PUBLIC_URL', async () => {
    stubEnvironment({ MERIDIAN_PUBLIC_URL: 'https://meridian.example.com' });
    await expect(import('../../lambdas/handlers/oauth-http.js')).resolves.toHaveProperty('handler');

    vi.resetModules();
    vi.stubEnv('MERIDIAN_PUBLIC_URL', '');
    await expect(import('../../lambdas/handlers/oauth-http.js')).rejects.toThrow(
      /MERIDIAN_PUBLIC_URL is not set: the authorization server's issuer/,
    );
  });

  it('fails the MCP function told to accept tokens without the public URL they name', async () => {
    stubEnvironment({ MERIDIAN_OAUTH_TOKENS: 'on' });

    await expect(HANDLERS['the MCP function']()).rejects.toThrow(
      'MERIDIAN_OAUTH_TOKENS=on needs MERIDIAN_PUBLIC_URL',
    );
  });

  it.each([
    ['the MCP function', 'MERIDIAN_BOOKING_STATE_MACHINE_ARN'],
    ['the booking steps', 'MERIDIAN_DATA_KEY_ARN'],
    ['the sync function', 'MERIDIAN_TABLE_NAME'],
    ['the memory compression function', 'MERIDIAN_MEMORY_BUCKET_NAME'],
  ] as const)('fails %s when the stack did not set %s', async (name, variable) => {
    stubEnvironment({ [variable]: '' });

    await expect(HANDLERS[name]()).rejects.toThrow(`${variable} is not set: the CDK stack sets it`);
  });
});
