/**
 * The MCP handler as `cdk deploy` ships it: bundled by lib/constructs/lambda-bundling.ts (split
 * into chunks, tools/list computed at bundle time), then imported and served like the source.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { toolCallEvent } from '../../bench/cold-start.bench.js';
import { calendarResource, LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { projectResource } from '../../lambdas/core/rules/project-access.js';
import { allToolsCatalogue, TOOLSETS } from '../../lambdas/mcp/tools/index.js';
import { TOOL_LOADERS } from '../../lambdas/mcp/tools/tool-loaders.js';
import { enabledTools } from '../../lambdas/mcp/toolsets.js';
import {
  inputsLoadedAfter,
  inputsLoadedAtStart,
  LAMBDA_ENTRY_NAME,
  lambdaEsbuildOptions,
  outputsLoadedAtStart,
} from '../../lib/constructs/lambda-bundling.js';
import { MCP_HANDLER_ENTRY } from '../../lib/constructs/mcp-function.js';
import { describeMcpHttpTransport, type HttpTarget } from '../mcp/http-transport-suite.js';
import { captureEmfLines, linesWith } from '../support/emf-lines.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestRuntime } from '../support/test-runtime.js';
import { firstCallLoads } from './first-call-loads.js';
import { lambdaHandlerTarget } from './lambda-target.js';

const outDir = mkdtempSync(join(tmpdir(), 'meridian-mcp-bundle-'));
const entryFile = join(outDir, `${LAMBDA_ENTRY_NAME}.mjs`);
let bundled: Promise<Metafile> | undefined;

/** Bundles once for the whole file, whichever block asks first. */
function bundleHandler(): Promise<Metafile> {
  bundled ??= build({ ...lambdaEsbuildOptions(MCP_HANDLER_ENTRY, outDir), metafile: true }).then(
    (result) => result.metafile,
  );
  return bundled;
}

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Fails for each pattern some loaded input matches, naming the pattern and the inputs. */
function expectNoneLoaded(inputs: readonly string[], patterns: readonly RegExp[]): void {
  for (const pattern of patterns)
    expect({ pattern, loaded: inputs.filter((input) => pattern.test(input)) }).toEqual({
      pattern,
      loaded: [],
    });
}

let served: Promise<HttpTarget> | undefined;

/**
 * The bundle served over HTTP, once for the file: its module reads the environment when it
 * loads, and a second import of the same file is the same module. The transport suite below
 * closes it after its own tests, which run last.
 */
function servedBundle(): Promise<HttpTarget> {
  served ??= bundleHandler().then(() =>
    lambdaHandlerTarget(() => import(/* @vite-ignore */ pathToFileURL(entryFile).href)),
  );
  return served;
}

describe('the bundled MCP handler', () => {
  it('leaves the tools, the services behind them and the provider clients out of a cold start', async () => {
    const loaded = inputsLoadedAtStart(await bundleHandler());

    // What a cold start does need is there: the environment's parse and the table's client
    // (authentication's AccessStore is a small chunk of its own, the first request's)…
    expect(loaded).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/lambdas\/runtime\/environment\.ts$/),
        expect.stringMatching(/lambdas\/adapters\/dynamodb\/dynamodb-document-store\.ts$/),
      ]),
    );
    // …and none of this, which a tools/call loads from chunks on first use.
    const deferred = [
      /lambdas\/mcp\/tools\/(?!deferred-catalogue\.ts|tool-loaders\.ts)/,
      /lambdas\/core\/(calendar|booking|availability|time|shadow)\//,
      // Of the firewall, only the stored-text rule the schemas apply and the flag's shape: no rule.
      /lambdas\/core\/firewall\/(?!sanitize-text\.ts$|untrusted-marks\.ts$)/,
      /lambdas\/adapters\/(google|caldav|encryption|workflow)\//,
      /lambdas\/adapters\/bedrock\/titan-embedder\.ts$/,
      /node_modules\/(luxon|rrule|chrono-node|tsdav|ical\.js|googleapis-common|google-auth-library|@aws-crypto|@aws-sdk\/client-(sfn|kms|bedrock-runtime))\//,
      // The bundled tools/list: a first tools/list loads it, a first tools/call does not.
      /^<define:__MERIDIAN_TOOL_LISTING__>$/,
      // Prompts, resources and completions: the first request for one loads them.
      /lambdas\/mcp\/(prompts|resources)\/|lambdas\/mcp\/(completions|prompt-registry|resource-registry)\.ts$/,
    ];
    expectNoneLoaded(loaded, deferred);
  });

  it('loads only the called toolset on a first tools/call: a time tool brings no other toolset', async () => {
    const metafile = await bundleHandler();
    const atStart = new Set(inputsLoadedAtStart(metafile));
    const loadedBy = (toolset: string) =>
      inputsLoadedAfter(metafile, [new RegExp(`tools/toolsets/${toolset}\\.ts$`)]).filter(
        (input) => !atStart.has(input),
      );

    const timeCall = loadedBy('time');
    const memoryCall = loadedBy('memory');

    expect(timeCall).toEqual(expect.arrayContaining([expect.stringMatching(/tools\/resolve-datetime\.ts$/)]));
    expect(
      timeCall.filter((input) =>
        /lambdas\/(mcp\/tools\/(?!toolsets\/)[a-z]+\/|core\/(memory|rules)\/)/.test(input),
      ),
    ).toEqual([]);
    expect(memoryCall).toEqual(
      expect.arrayContaining([expect.stringMatching(/tools\/memory\/update-memory\.ts$/)]),
    );
    expect(
      memoryCall.filter((input) =>
        /lambdas\/mcp\/tools\/(calendar|availability|booking|rules)\//.test(input),
      ),
    ).toEqual([]);
  });

  it('loads a called tool on its own: a first call compiles no other tool, nor what only other tools need', async () => {
    const metafile = await bundleHandler();
    const atStart = new Set(inputsLoadedAtStart(metafile));
    const loadedBy = (tool: RegExp) =>
      inputsLoadedAfter(metafile, [tool]).filter((input) => !atStart.has(input));
    // Every tool's own file, each the entry point of a chunk (a toolset's module is one too).
    const toolFiles = Object.values(metafile.outputs)
      .map((output) => output.entryPoint ?? '')
      .filter((entry) => /lambdas\/mcp\/tools\/(?!toolsets\/|bundled-listing\.ts$)/.test(entry));

    expect(toolFiles.length).toBe(
      Object.values(TOOL_LOADERS).flatMap((loaders) => Object.keys(loaders)).length,
    );
    // The tools built on another's module: preview_rule's output schema, update_event's patch.
    const sharing: Record<string, string[]> = {
      'lambdas/mcp/tools/rules/create-rule-from-description.ts': ['lambdas/mcp/tools/rules/preview-rule.ts'],
      'lambdas/mcp/tools/calendar/batch-update-events.ts': ['lambdas/mcp/tools/calendar/update-event.ts'],
    };
    for (const file of toolFiles) {
      const others = loadedBy(new RegExp(`${file.replace(/[.]/g, '\\.')}$`)).filter(
        (input) => toolFiles.some((other) => input.endsWith(other)) && !input.endsWith(file),
      );
      expect({ file, others }).toEqual({ file, others: sharing[file] ?? [] });
    }
    // What only some of a toolset's tools stand on: chrono-node (resolve_datetime,
    // quick_add_event) and rrule (expand_rrule, the series tools).
    for (const tool of [/tools\/get-temporal-context\.ts$/, /tools\/calendar\/list-calendars\.ts$/]) {
      expect(loadedBy(tool).filter((input) => /node_modules\/(chrono-node|rrule)\//.test(input))).toEqual([]);
    }
    expect(loadedBy(/tools\/get-temporal-context\.ts$/)).toEqual(
      expect.arrayContaining([expect.stringMatching(/node_modules\/luxon\//)]),
    );
    expect(loadedBy(/tools\/calendar\/quick-add-event\.ts$/)).toEqual(
      expect.arrayContaining([expect.stringMatching(/node_modules\/chrono-node\//)]),
    );
  });

  it('answers a first list_calendars or list_projects, in a fresh process, without luxon, the firewall rules, the providers, booking or the rules engine (nor, for list_projects, the calendars); a first check_availability without the firewall rules or booking beyond the holds', {
    timeout: 90_000,
  }, async () => {
    const metafile = await bundleHandler();
    const runtime = await startTestRuntime();
    try {
      const { token, keyId } = await runtime.newKey('first-call');
      const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
        name: 'First',
        time_zone: 'UTC',
      });
      await runtime.access.setGrant(keyId, calendarResource(calendar.id), 'read');
      const firstCall = (tool: string, args: Record<string, unknown> = {}) =>
        firstCallLoads(outDir, metafile, runtime, toolCallEvent(token, tool, args), tool);
      const [calendars, projects, availability] = [
        await firstCall('list_calendars'),
        await firstCall('list_projects'),
        await firstCall('check_availability', {
          calendar_id: calendar.id,
          start: '2031-01-06T09:00:00Z',
          end: '2031-01-06T10:00:00Z',
        }),
      ];

      // Each call ran its tool against the table…
      expect([calendars.result, projects.result, availability.result]).toEqual([
        { ...calendars.result, statusCode: 200, toolSucceeded: true },
        { ...projects.result, statusCode: 200, toolSucceeded: true },
        { ...availability.result, statusCode: 200, toolSucceeded: true },
      ]);
      expect(calendars.inputs).toEqual(
        expect.arrayContaining([expect.stringMatching(/core\/calendar\/calendar-service\.ts$/)]),
      );
      expect(projects.inputs).toEqual(
        expect.arrayContaining([expect.stringMatching(/core\/rules\/rules-service\.ts$/)]),
      );
      // list_projects reads no event: it builds no calendar either.
      expect(projects.inputs.filter((input) => /lambdas\/core\/calendar\//.test(input))).toEqual([]);
      // …and loaded none of what only reading or writing events, booking or rules need.
      const notForAListing = [
        /node_modules\/luxon\//,
        // Of the firewall, only what a cold start loads (the stored-text rule, the flag's shape).
        /lambdas\/core\/firewall\/(?!sanitize-text\.ts$|untrusted-marks\.ts$)/,
        /lambdas\/runtime\/compose-providers\.ts$/,
        /lambdas\/core\/(shadow|availability)\//,
        // Booking's code, and the idempotency records: only a keyed write loads them.
        /lambdas\/core\/booking\//,
        /lambdas\/core\/rules\/(parse-query|classify|rule-events|rule-preview|timesheet|rule-suggestions)\.ts$/,
      ];
      expectNoneLoaded(calendars.inputs, notForAListing);
      expectNoneLoaded(projects.inputs, notForAListing);
      // check_availability reads events and holds, in zones: of booking only the holds, no firewall rule.
      expect(availability.inputs).toEqual(
        expect.arrayContaining([expect.stringMatching(/core\/booking\/slot-locks\.ts$/)]),
      );
      expectNoneLoaded(availability.inputs, [
        /lambdas\/core\/firewall\/(?!sanitize-text\.ts$|untrusted-marks\.ts$)/,
        /lambdas\/core\/booking\/(?!slot-locks\.ts$|booking-schemas\.ts$|step-errors\.ts$)/,
        /lambdas\/runtime\/booking-steps-over\.ts$/,
      ]);
    } finally {
      await runtime.close();
    }
  });

  // A fresh process, as a Lambda cold start is: the bundle's own chunks, recorded as Node loads them.
  it('loads of the memory, on a cold start whose first call is list_branches, the memory service and its store alone', {
    timeout: 60_000,
  }, async () => {
    const metafile = await bundleHandler();
    const runtime = await startTestRuntime();
    try {
      const { token, keyId } = await runtime.newKey('cold-memory');
      const project = await runtime.rules.projects.create({ name: 'Cold memory' });
      await runtime.access.setGrant(keyId, projectResource(project.project_id), 'read');
      const { inputs: loaded, result } = await firstCallLoads(
        outDir,
        metafile,
        runtime,
        toolCallEvent(token, 'list_branches', { project_id: project.project_id }),
        'list_branches',
      );

      expect(result).toEqual({ ...result, statusCode: 200, toolSucceeded: true });

      expect(loaded).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/core\/memory\/memory-service\.ts$/),
          expect.stringMatching(/core\/memory\/store\/memory-store\.ts$/),
        ]),
      );
      // Search (minisearch), snapshots, grounding and suggestions are other tools' slices; the
      // firewall's rules and the secret patterns are loaded by the first write; a read has no
      // idempotency key, so none of the records (nor the booking code they are kept with).
      const otherTools = [
        /lambdas\/core\/memory\/(search|snapshots|grounding|suggestions|graph)\//,
        /lambdas\/core\/memory\/(memory-insights|store\/redact-secrets)\.ts$/,
        /lambdas\/core\/firewall\/(?!sanitize-text\.ts$|untrusted-marks\.ts$)/,
        /lambdas\/core\/booking\//,
        /node_modules\/minisearch\//,
      ];
      expectNoneLoaded(loaded, otherTools);
    } finally {
      await runtime.close();
    }
  });

  it('loads, tool by tool, exactly the tools each toolset lists, under the same names', async () => {
    for (const [toolset, loaders] of Object.entries(TOOL_LOADERS)) {
      const alone = await Promise.all(Object.values(loaders).map((load) => load()));

      expect(alone).toEqual([...TOOLSETS[toolset as keyof typeof TOOLSETS]]);
      expect(Object.keys(loaders)).toEqual(alone.map((tool) => tool.name));
    }
    expect(Object.keys(TOOL_LOADERS)).toEqual(Object.keys(TOOLSETS));
  });

  it('carries every tool of tools/list in a chunk of its own: the listing, which no tools/call loads', async () => {
    const metafile = await bundleHandler();
    const atStart = new Set(inputsLoadedAtStart(metafile));
    const [listingChunk] = Object.entries(metafile.outputs).find(([, output]) =>
      (output.entryPoint ?? '').endsWith('lambdas/mcp/tools/bundled-listing.ts'),
    )!;
    const { bundledListing } = await import(/* @vite-ignore */ pathToFileURL(resolve(listingChunk)).href);

    expect(bundledListing).toEqual(await allToolsCatalogue.listing());
    expect(outputsLoadedAtStart(metafile)).not.toContain(listingChunk);
    for (const call of [/tools\/get-temporal-context\.ts$/, /tools\/memory\/update-memory\.ts$/]) {
      const loaded = inputsLoadedAfter(metafile, [call]).filter((input) => !atStart.has(input));
      expect(loaded.filter((input) => /bundled-listing\.ts$|^<define:/.test(input))).toEqual([]);
    }
  });

  describe('over HTTP', () => {
    it('parses with zod in its jitless mode once its module has loaded', async () => {
      await servedBundle();

      // zod keeps its config on globalThis, where every copy of it (the bundle's too) reads it.
      const zodConfig = (globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig;
      expect(zodConfig?.jitless).toBe(true);
    });

    it('answers tools/list with the listing computed at bundle time, identical to the live one', async () => {
      const target = await servedBundle();
      const { token } = await target.newKey();
      const client = await connectHttpClient(`${target.baseUrl}/mcp`, target.fetch, {
        authorization: `Bearer ${token}`,
      });
      try {
        const { tools } = await client.listTools();

        expect(tools).toEqual(enabledTools(await allToolsCatalogue.listing(), undefined));
      } finally {
        await client.close();
      }
    });

    // The first test to load the bundle builds it: slow on a busy machine.
    it('writes EMF metrics for each tools/call: calls and latency by tool and outcome, service-wide calls and faults', {
      timeout: 90_000,
    }, async () => {
      const target = await servedBundle();
      const { token } = await target.newKey();
      const client = await connectHttpClient(`${target.baseUrl}/mcp`, target.fetch, {
        authorization: `Bearer ${token}`,
      });
      const emf = captureEmfLines();
      try {
        await client.callTool({
          name: 'convert_timezone',
          arguments: { datetime: '2026-11-27T10:00:00Z', target_timezone: 'Asia/Tokyo' },
        });
        await client.callTool({
          name: 'get_event',
          arguments: { calendar_id: 'native/none', event_id: 'x' },
        });
      } finally {
        emf.restore();
        await client.close();
      }
      const metric = (name: string) => linesWith(emf.lines, name);

      expect(emf.lines.every((line) => line._aws.CloudWatchMetrics[0]?.Namespace === 'Meridian')).toBe(true);
      expect(metric('ToolCalls').map((line) => [line.tool, line.outcome, line.ToolCalls])).toEqual([
        ['convert_timezone', 'ok', 1],
        ['get_event', 'FORBIDDEN', 1],
      ]);
      expect(metric('ToolLatency').every((line) => typeof line.ToolLatency === 'number')).toBe(true);
      // Service-wide values under the service dimension alone, as the alarms read them.
      expect(metric('Calls').map((line) => [line.Calls, line.Faults])).toEqual([
        [1, 0],
        [1, 0],
      ]);
      expect(metric('Calls').map((line) => line._aws.CloudWatchMetrics[0]?.Dimensions)).toEqual([
        [['service']],
        [['service']],
      ]);
    });
  });
});

describeMcpHttpTransport('the bundled Lambda handler (split chunks, bundled tool listing)', servedBundle);
