/**
 * What the booking-step and sync functions load on a cold start, as `cdk deploy` bundles them
 * (lib/constructs/lambda-bundling.ts): each only the part of the object graph it runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_STEPS_ENTRY } from '../../lib/constructs/booking-workflow.js';
import { inputsLoadedAtStart, lambdaEsbuildOptions } from '../../lib/constructs/lambda-bundling.js';
import { SYNC_HANDLER_ENTRY } from '../../lib/constructs/sync-schedule.js';

const outDir = mkdtempSync(join(tmpdir(), 'meridian-step-sync-bundles-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

async function loadedAtStart(entry: string, name: string): Promise<string[]> {
  const { metafile } = await build({ ...lambdaEsbuildOptions(entry, join(outDir, name)), metafile: true });
  return inputsLoadedAtStart(metafile);
}

const matching = (inputs: string[], pattern: RegExp) => inputs.filter((input) => pattern.test(input));

describe('the bundled booking steps', () => {
  it('load the table and the step code at start, and calendars, providers and the shadow on first use', async () => {
    const loaded = await loadedAtStart(BOOKING_STEPS_ENTRY, 'steps');

    expect(
      matching(loaded, /lambdas\/core\/booking\/(slot-locks|idempotency|booking-steps)\.ts$/),
    ).toHaveLength(3);
    expect(matching(loaded, /lambdas\/adapters\/dynamodb\/dynamodb-document-store\.ts$/)).toHaveLength(1);
    const deferred = [
      /lambdas\/core\/(calendar\/(calendar-service|native\/)|shadow\/|access\/|firewall\/)/,
      /lambdas\/core\/booking\/booking-service\.ts$/,
      /lambdas\/mcp\//,
      /lambdas\/adapters\/(google|caldav|encryption|workflow)\//,
      /lambdas\/runtime\/(compose|provider-)/,
      /node_modules\/(tsdav|google-auth-library|@aws-crypto|@aws-sdk\/client-(sfn|kms)|@modelcontextprotocol)\//,
    ];
    for (const pattern of deferred) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);
});

describe('the bundled sync function', () => {
  it('loads calendars and the shadow sync, and nothing of booking, holds or the MCP tools', async () => {
    const loaded = await loadedAtStart(SYNC_HANDLER_ENTRY, 'sync');

    expect(matching(loaded, /lambdas\/core\/shadow\/sync-all\.ts$/)).toHaveLength(1);
    expect(matching(loaded, /lambdas\/core\/calendar\/calendar-service\.ts$/)).toHaveLength(1);
    const absent = [
      /lambdas\/core\/booking\//,
      /lambdas\/mcp\//,
      /lambdas\/runtime\/compose\.ts$/,
      /node_modules\/(@aws-sdk\/client-sfn|@modelcontextprotocol|chrono-node)\//,
    ];
    for (const pattern of absent) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);
});
