/**
 * The deployed functions run without Node's --enable-source-maps (it reads every map at load, a
 * quarter of a cold start) and map their stack traces themselves, reading a chunk's map only when
 * an error passing through it is formatted (lambdas/handlers/lazy-source-maps.ts). Tested on the
 * bundle as deployed, in a fresh process with the function's environment and nothing else.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_HANDLER_ENTRY } from '../../lib/constructs/audit-export-schedule.js';
import { BOOKING_STEPS_ENTRY } from '../../lib/constructs/booking-workflow.js';
import { lambdaEsbuildOptions } from '../../lib/constructs/lambda-bundling.js';
import { MCP_HANDLER_ENTRY } from '../../lib/constructs/mcp-function.js';
import { MEMORY_COMPRESSION_HANDLER_ENTRY } from '../../lib/constructs/memory-compression-schedule.js';
import { OAUTH_HANDLER_ENTRY } from '../../lib/constructs/oauth-function.js';
import { SYNC_HANDLER_ENTRY } from '../../lib/constructs/sync-schedule.js';

const outDir = mkdtempSync(join(tmpdir(), 'meridian-lazy-source-maps-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Calls the Lock step with an event that is not a booking and prints the error's stack. */
const CALLER = `
const [bundle] = process.argv.slice(2);
const { lockHandler } = await import(bundle);
try {
  await lockHandler({ not: 'a booking' }, { awsRequestId: 'r1', functionName: 'lock', getRemainingTimeInMillis: () => 10_000 });
  console.log('NO ERROR');
} catch (error) {
  console.log(JSON.stringify({ stack: error.stack }));
}
`;

/** What the stack sets on the function, the table out of reach (nothing here reaches it). */
const FUNCTION_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_MAX_ATTEMPTS: '1',
  AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  MERIDIAN_TABLE_NAME: 'meridian-test',
  MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000000',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

async function stackOfFailedStep(env: Record<string, string>): Promise<string> {
  const caller = join(outDir, 'caller.mjs');
  writeFileSync(caller, CALLER);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [caller, join(outDir, 'steps', 'index.mjs')],
    {
      env,
    },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('{') || l === 'NO ERROR');
  expect(line).not.toBe('NO ERROR');
  return (JSON.parse(line!) as { stack: string }).stack;
}

describe('stack traces of a bundled function', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await build(lambdaEsbuildOptions(BOOKING_STEPS_ENTRY, join(outDir, 'steps')));
  });

  it('name the TypeScript sources without --enable-source-maps', async () => {
    const stack = await stackOfFailedStep(FUNCTION_ENV);
    // The step guard's frame, mapped back to its source file and line, named as in the source.
    expect(stack).toMatch(/at Object\.lock \(\/.*\/lambdas\/core\/booking\/guard-step\.ts:\d+:\d+\)/);
    // No frame left pointing into the minified bundle.
    expect(stack).not.toMatch(/(index|chunks\/[\w-]+)\.mjs:\d+:\d+/);
  });

  it("step aside when Node's own source maps are on", async () => {
    const stack = await stackOfFailedStep({ ...FUNCTION_ENV, NODE_OPTIONS: '--enable-source-maps' });
    expect(stack).toMatch(/lambdas\/core\/booking\/guard-step\.ts:\d+:\d+/);
  });
});

describe('every function the stack deploys', () => {
  it.each([
    MCP_HANDLER_ENTRY,
    BOOKING_STEPS_ENTRY,
    SYNC_HANDLER_ENTRY,
    MEMORY_COMPRESSION_HANDLER_ENTRY,
    AUDIT_EXPORT_HANDLER_ENTRY,
    OAUTH_HANDLER_ENTRY,
  ])('installs the lazy source maps before anything else: %s', (entry) => {
    const firstImport = readFileSync(entry, 'utf8').match(/^import .*$/m)?.[0];
    expect(firstImport).toBe("import './lazy-source-maps.js';");
  });
});
