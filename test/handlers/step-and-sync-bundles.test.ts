/**
 * What the booking-step and sync functions load on a cold start, as `cdk deploy` bundles them
 * (lib/constructs/lambda-bundling.ts): each only the part of the object graph it runs.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_STEPS_ENTRY } from '../../lib/constructs/booking-workflow.js';
import {
  inputsLoadedAfter,
  inputsLoadedAtStart,
  lambdaEsbuildOptions,
} from '../../lib/constructs/lambda-bundling.js';
import { MEMORY_COMPRESSION_HANDLER_ENTRY } from '../../lib/constructs/memory-compression-schedule.js';
import { SYNC_HANDLER_ENTRY } from '../../lib/constructs/sync-schedule.js';

const outDir = mkdtempSync(join(tmpdir(), 'meridian-step-sync-bundles-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

async function bundleOf(entry: string, name: string): Promise<Metafile> {
  const { metafile } = await build({ ...lambdaEsbuildOptions(entry, join(outDir, name)), metafile: true });
  return metafile;
}

const matching = (inputs: string[], pattern: RegExp) => inputs.filter((input) => pattern.test(input));

/** What only the calendar tools need: a booking step never loads it. */
const CALENDAR_TOOL_SIDE = [
  /lambdas\/core\/(calendar\/calendar-service|access\/|firewall\/)/,
  /lambdas\/core\/booking\/booking-service\.ts$/,
  // The environment's parse checks MERIDIAN_ALLOWED_ORIGINS with the HTTP layer's own parser:
  // two small modules that import nothing else; and every logger reads the request's trace
  // scope (mcp/trace/trace-scope.ts, an AsyncLocalStorage). Nothing more of MCP.
  /lambdas\/mcp\/(?!http\/(origin-policy|http-responses)\.ts$|trace\/trace-scope\.ts$)/,
  /lambdas\/runtime\/compose\.ts$/,
  /node_modules\/(@aws-sdk\/client-sfn|@modelcontextprotocol)\//,
];
const STEP_MODULE = /lambdas\/core\/booking\/(lock|verify|write|release)-step\.ts$|booking-compensation\.ts$/;
const CALENDAR_GRAPH = [
  /lambdas\/runtime\/compose-providers\.ts$/,
  /lambdas\/runtime\/provider-factories\.ts$/,
];

/**
 * A bundle's state once its handler module is imported in a fresh process with the variables the
 * stack gives it: the Node internals loaded (`process.moduleLoadList`), and whether zod will parse
 * without generating code (its global config, which `z.config` writes on globalThis).
 */
async function stateAfterImport(bundleFile: string): Promise<{ internals: string[]; zodJitless: boolean }> {
  const script = `await import(${JSON.stringify(bundleFile)}); console.log(JSON.stringify({ internals: process.moduleLoadList, zodJitless: globalThis.__zod_globalConfig?.jitless === true }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      // Nothing answers: the schema check begun at start fails after the import, unawaited.
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
      MERIDIAN_TABLE_NAME: 'meridian',
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:us-east-1:123456789012:key/example',
      MERIDIAN_MEMORY_BUCKET_NAME: 'meridian-memory',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('the bundled booking steps', () => {
  it('load neither undici nor the fs promise API at start: node:http and node:fs are taken without their ES module views', async () => {
    await bundleOf(BOOKING_STEPS_ENTRY, 'steps-internals');

    const { internals } = await stateAfterImport(join(outDir, 'steps-internals', 'index.mjs'));

    expect(internals).toContain('NativeModule http');
    expect(internals.filter((name) => /undici|internal\/fs\/promises/.test(name))).toEqual([]);
  }, 60_000);

  it('load no web streams at start: middy imports them for streamed responses, which no step makes', async () => {
    await bundleOf(BOOKING_STEPS_ENTRY, 'steps-web-streams');

    const { internals } = await stateAfterImport(join(outDir, 'steps-web-streams', 'index.mjs'));

    expect(internals).toContain('NativeModule stream');
    expect(internals.filter((name) => /webstreams|stream\/web/.test(name))).toEqual([]);
  }, 60_000);

  it('parse with zod in its jitless mode, set before any step runs', async () => {
    await bundleOf(BOOKING_STEPS_ENTRY, 'steps-zod');

    const { zodJitless } = await stateAfterImport(join(outDir, 'steps-zod', 'index.mjs'));

    expect(zodJitless).toBe(true);
  }, 60_000);

  it('load the table at start; the holds, each step’s code, calendars and the shadow on first use', async () => {
    const metafile = await bundleOf(BOOKING_STEPS_ENTRY, 'steps');
    const loaded = inputsLoadedAtStart(metafile);

    expect(matching(loaded, /lambdas\/adapters\/dynamodb\/dynamodb-document-store\.ts$/)).toHaveLength(1);
    // The holds, the idempotency records and the steps' guard: built by the wiring table on the first step.
    const firstStep = inputsLoadedAfter(metafile, [/runtime\/parts\/holds\.ts$/]);
    expect(
      matching(firstStep, /lambdas\/core\/booking\/(slot-locks|idempotency|guard-step)\.ts$/),
    ).toHaveLength(3);
    const deferred = [
      STEP_MODULE,
      /lambdas\/core\/booking\/(slot-locks|idempotency|guard-step)\.ts$/,
      /lambdas\/core\/booking\/(booking-steps|slot-conflicts|record-in-shadow)\.ts$/,
      /lambdas\/core\/(calendar\/(calendar-service|native\/|series)|shadow\/|access\/|firewall\/)/,
      /lambdas\/core\/booking\/booking-service\.ts$/,
      /lambdas\/mcp\/(?!http\/(origin-policy|http-responses)\.ts$|trace\/trace-scope\.ts$)/,
      /lambdas\/adapters\/(google|caldav|encryption|workflow)\//,
      /lambdas\/runtime\/(compose-providers|provider-factories)\.ts$/,
      /node_modules\/(rrule|ical\.js|tsdav|google-auth-library|@aws-crypto|@aws-sdk\/client-(sfn|kms)|@modelcontextprotocol)\//,
    ];
    for (const pattern of deferred) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);

  it('load for Lock only its step: no other step, no calendar, no recurrence code', async () => {
    const metafile = await bundleOf(BOOKING_STEPS_ENTRY, 'steps-lock');

    const loaded = inputsLoadedAfter(metafile, [/core\/booking\/lock-step\.ts$/]);

    expect(matching(loaded, STEP_MODULE)).toEqual([expect.stringMatching(/lock-step\.ts$/)]);
    for (const pattern of [
      /lambdas\/core\/(calendar\/(series|native\/)|shadow\/)/,
      /node_modules\/(rrule|ical\.js)\//,
    ])
      expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);

  it('load for Compensate only its step: a slot found taken needs no calendar and no recurrence code', async () => {
    const metafile = await bundleOf(BOOKING_STEPS_ENTRY, 'steps-compensate');

    const loaded = inputsLoadedAfter(metafile, [/core\/booking\/booking-compensation\.ts$/]);

    expect(matching(loaded, STEP_MODULE)).toEqual([expect.stringMatching(/booking-compensation\.ts$/)]);
    for (const pattern of [
      /lambdas\/core\/(calendar\/(series|native\/)|shadow\/)/,
      /node_modules\/(rrule|ical\.js)\//,
    ])
      expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);

  it('load for Verify its step and the providers and shadow, but nothing of the calendar tools', async () => {
    const metafile = await bundleOf(BOOKING_STEPS_ENTRY, 'steps-verify');

    const loaded = inputsLoadedAfter(metafile, [/core\/booking\/verify-step\.ts$/, ...CALENDAR_GRAPH]);

    expect(matching(loaded, STEP_MODULE)).toEqual([expect.stringMatching(/verify-step\.ts$/)]);
    expect(matching(loaded, /lambdas\/core\/shadow\/table-shadow-calendar\.ts$/)).toHaveLength(1);
    for (const pattern of CALENDAR_TOOL_SIDE) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);

  for (const step of ['verify', 'write'])
    it(`load for ${step} no recurrence code until a calendar or the shadow meets a series`, async () => {
      const metafile = await bundleOf(BOOKING_STEPS_ENTRY, `steps-${step}-recurrence`);

      const loaded = inputsLoadedAfter(metafile, [
        new RegExp(`core/booking/${step}-step\\.ts$`),
        ...CALENDAR_GRAPH,
      ]);

      expect(matching(loaded, /lambdas\/core\/calendar\/native\/native-calendar-provider\.ts$/)).toHaveLength(
        1,
      );
      expect(matching(loaded, /lambdas\/core\/shadow\/shadow-busy\.ts$/)).toHaveLength(1);
      for (const pattern of [
        /lambdas\/core\/calendar\/(series|recurrence-lines)\.ts$/,
        /lambdas\/core\/time\/recurrence\//,
        /node_modules\/(rrule|ical\.js)\//,
      ])
        expect(matching(loaded, pattern)).toEqual([]);
    }, 60_000);
});

describe('the bundled sync function', () => {
  it('loads the sync run at start, the registry on the first run; providers, recurrence code and a calendar’s sync on first use', async () => {
    const metafile = await bundleOf(SYNC_HANDLER_ENTRY, 'sync');
    const loaded = inputsLoadedAtStart(metafile);

    expect(matching(loaded, /lambdas\/core\/shadow\/sync-all\.ts$/)).toHaveLength(1);
    const firstRun = inputsLoadedAfter(metafile, [/core\/calendar\/calendar-registry\.ts$/]);
    expect(matching(firstRun, /lambdas\/core\/calendar\/calendar-registry\.ts$/)).toHaveLength(1);
    for (const pattern of [/lambdas\/core\/shadow\/sync-calendar\.ts$/, /lambdas\/core\/calendar\/native\//])
      expect(matching(firstRun, pattern)).toEqual([]);
    const deferred = [
      /lambdas\/core\/shadow\/(sync-calendar|shadow-writes|table-shadow-calendar)\.ts$/,
      /lambdas\/core\/calendar\/(native\/|series)/,
      /lambdas\/adapters\/(google|caldav|encryption)\//,
      /lambdas\/runtime\/(compose-providers|provider-factories)\.ts$/,
      /lambdas\/adapters\/(s3|bedrock\/titan-embedder)/,
      /node_modules\/(luxon|rrule|ical\.js|tsdav|google-auth-library|@aws-crypto)\//,
    ];
    for (const pattern of deferred) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);

  it('loads nothing of booking, holds, grants or the MCP tools, even once it syncs a calendar', async () => {
    const metafile = await bundleOf(SYNC_HANDLER_ENTRY, 'sync-calendar');

    const loaded = inputsLoadedAfter(metafile, [/core\/shadow\/sync-calendar\.ts$/, ...CALENDAR_GRAPH]);

    expect(matching(loaded, /lambdas\/core\/shadow\/sync-calendar\.ts$/)).toHaveLength(1);
    // The content firewall is the one tool-side part a sync needs: it screens every synced event.
    expect(matching(loaded, /lambdas\/core\/firewall\/untrusted-text\.ts$/)).toHaveLength(1);
    const absent = [
      /lambdas\/core\/booking\//,
      /lambdas\/core\/(calendar\/calendar-service|access\/)/,
      ...CALENDAR_TOOL_SIDE.slice(1),
      /node_modules\/(@aws-sdk\/client-sfn|@modelcontextprotocol|chrono-node)\//,
    ];
    for (const pattern of absent) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);
});

describe('the bundled scheduled functions', () => {
  it.each([
    ['sync', SYNC_HANDLER_ENTRY],
    ['memory compression', MEMORY_COMPRESSION_HANDLER_ENTRY],
  ])(
    '%s parses with zod in its jitless mode',
    async (name, entry) => {
      await bundleOf(entry, `${name}-zod`);

      const { zodJitless } = await stateAfterImport(join(outDir, `${name}-zod`, 'index.mjs'));

      expect(zodJitless).toBe(true);
    },
    60_000,
  );
});

describe('the bundled memory compression function', () => {
  it('loads the sweep, then the memory store on its first run, and nothing of calendars, booking, secrets or the MCP tools', async () => {
    const metafile = await bundleOf(MEMORY_COMPRESSION_HANDLER_ENTRY, 'memory-compression');
    const loaded = inputsLoadedAfter(metafile, [/runtime\/parts\/memory-store\.ts$/]);

    expect(matching(loaded, /lambdas\/core\/memory\/contexts\/idle-compression-sweep\.ts$/)).toHaveLength(1);
    expect(matching(loaded, /lambdas\/core\/memory\/store\/memory-store\.ts$/)).toHaveLength(1);
    const absent = [
      /lambdas\/core\/(booking|calendar|shadow)\//,
      /lambdas\/mcp\/(?!http\/(origin-policy|http-responses)\.ts$|trace\/trace-scope\.ts$)/,
      /lambdas\/runtime\/compose\.ts$/,
      /node_modules\/(@aws-sdk\/client-(sfn|kms|s3)|@aws-crypto|@modelcontextprotocol|minisearch)\//,
    ];
    for (const pattern of absent) expect(matching(loaded, pattern)).toEqual([]);
  }, 60_000);
});
