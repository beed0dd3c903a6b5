/**
 * Cold start of the MCP Lambda against a minimal MCP SDK Lambda, all bundled exactly as
 * `McpFunction` bundles for deployment (lib/constructs/lambda-bundling.ts: split into chunks,
 * with tools/list computed at bundle time). The baselines build their one tool's listing at run
 * time, as the SDK's McpServer does.
 *
 * Two baselines. The target (issue 19: ≤ 1.5×) is judged against the bare SDK server
 * (fixtures/minimal-mcp-lambda.ts), which reads nothing. Beside it stands the floor of what the
 * function promises: the same server checking the caller's bearer key in the table first
 * (fixtures/minimal-authenticated-mcp-lambda.ts, one signed `GetItem`), since no remote server
 * an organisation exposes may answer a caller it has not authenticated; it keeps the cost of
 * authentication itself visible.
 *
 * Every sample is a fresh `node` process that imports one bundle and answers one API Gateway
 * (REST, v1) `tools/list` event, which is what a Lambda cold start does after the runtime has
 * booted (see lambda-probe.ts). Samples alternate A B B A … so machine load hits both alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { calendarResource, LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import { projectResource } from '../lambdas/core/rules/project-access.js';
import { MCP_HANDLER_ENTRY } from '../lib/constructs/mcp-function.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { reportFigure, reportRatio } from './harness.js';
import {
  bundle,
  describeTiming,
  interleave,
  kb,
  LAMBDA_ENV,
  median,
  ms,
  PROBE,
  probe,
  type Subject,
  sample,
  tableEnvironment,
} from './lambda-probe.js';

const RUNS = 15;
/** Fewer runs for the side measurement under Node's own source maps: it informs a choice, not the target. */
const RUNS_EAGER_SOURCE_MAPS = 7;
/** Runs for each first tools/call (one per toolset) and for the 2026-07-28 tools/list. */
const RUNS_FIRST_CALL = 9;
const BARE_ENTRY = fileURLToPath(new URL('./fixtures/minimal-mcp-lambda.ts', import.meta.url));
const FLOOR_ENTRY = fileURLToPath(new URL('./fixtures/minimal-authenticated-mcp-lambda.ts', import.meta.url));

/**
 * A stateless `tools/list` with no `initialize` first, as a stateless MCP server allows, with the
 * Bearer key Meridian checks against its table (so does the authenticated baseline; the bare one
 * ignores the header).
 */
export const toolsListEvent = (token: string): APIGatewayProxyEvent => {
  const host = 'bench1234.execute-api.us-east-1.amazonaws.com';
  const headers = {
    host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    authorization: `Bearer ${token}`,
  };
  return {
    resource: '/mcp',
    path: '/mcp',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'bench1234',
      authorizer: null,
      domainName: host,
      httpMethod: 'POST',
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: '203.0.113.7',
        user: null,
        userAgent: 'meridian-cold-start-bench',
        userArn: null,
      },
      path: '/prod/mcp',
      protocol: 'HTTP/1.1',
      requestId: 'c0ld-57a7-0000-0000-000000000001',
      requestTimeEpoch: 1_773_000_000_000,
      resourceId: 'mcp123',
      resourcePath: '/mcp',
      stage: 'prod',
    },
  };
};

/** A `tools/list` of the 2026-07-28 era: no initialize; version, client and capabilities in `_meta`. */
export const modernToolsListEvent = (token: string): APIGatewayProxyEvent => {
  const event = toolsListEvent(token);
  const headers = { ...event.headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
  return {
    ...event,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v!]])),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'meridian-bench', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  };
};

function writeEvent(outDir: string, name: string, event: APIGatewayProxyEvent): string {
  const file = join(outDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(event));
  return file;
}

/** The same request shape calling one tool. */
export const toolCallEvent = (
  token: string,
  name: string,
  args: Record<string, unknown>,
): APIGatewayProxyEvent => ({
  ...toolsListEvent(token),
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

function describeAnswer(s: Subject): string {
  const { statusCode, tools } = s.results[0]!;
  const listed = tools === null ? 'no result.tools in the body' : `${tools} tool${tools === 1 ? '' : 's'}`;
  return `${s.name} → HTTP ${statusCode}, ${listed}`;
}

/** Meridian, the authenticated floor and the bare server, fresh for one case. */
type Trio = [meridian: Subject, floor: Subject, bare: Subject];

const sinceStart = (s: Subject) => sample(s, (r) => r.sinceStartMs);
const cpu = (s: Subject) => sample(s, (r) => r.cpuMs).medianMs;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/**
 * The case's verdict against the bare SDK server (the baseline), and beside it the elapsed
 * ratio against the authenticated floor and the CPU-time ratios (steadier than elapsed time on a
 * loaded machine).
 */
function reportCase(title: string, [meridian, floor, bare]: Trio): void {
  reportRatio(
    title,
    { candidate: sinceStart(meridian), baseline: sinceStart(bare) },
    { kind: 'slowdown', value: 1.5 },
  );
  const [m, f, b] = [meridian, floor, bare].map((s) => sinceStart(s).medianMs) as [number, number, number];
  const [mc, fc, bc] = [meridian, floor, bare].map(cpu) as [number, number, number];
  reportFigure(
    `${title}: against the authenticated floor, and CPU time (medians)`,
    `elapsed ${ms(m)} vs floor ${ms(f)} → ${ratio(m, f)} (the floor is ${ratio(f, b)} the bare server); ` +
      `CPU ${ms(mc)} vs bare ${ms(bc)} → ${ratio(mc, bc)}, vs floor ${ms(fc)} → ${ratio(mc, fc)}`,
  );
}

export async function run(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'meridian-cold-start-'));
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const meridian = await bundle('meridian', MCP_HANDLER_ENTRY, outDir);
    const floor = await bundle('authenticated-sdk', FLOOR_ENTRY, outDir);
    const bare = await bundle('bare-sdk', BARE_ENTRY, outDir);
    const probeFile = join(outDir, 'probe.mjs');
    const eventFile = join(outDir, 'event.json');
    // Meridian and the floor authenticate against a table: a local DynamoDB (dynalite) with one key.
    const store = await startTestRuntime();
    cleanups.push(() => store.close());
    const { token, keyId } = await store.newKey('bench');
    const env = { ...LAMBDA_ENV, ...tableEnvironment(store) };
    writeFileSync(probeFile, PROBE);
    writeFileSync(eventFile, JSON.stringify(toolsListEvent(token)));
    const asDeployed = (s: Subject) => probe(probeFile, eventFile, s, env);
    const trio: Trio = [meridian, floor, bare];

    // One untimed run each, so that every bundle is in the page cache before timing starts.
    for (const subject of trio) await asDeployed(subject);
    await interleave(trio, RUNS, asDeployed);
    if (trio.some((s) => s.results.some((r) => r.tools === null)))
      throw new Error(`tools/list failed: ${trio.map(describeAnswer).join('; ')}`);

    reportCase(`cold start to first tools/list response (since process start, median of ${RUNS})`, trio);
    const bootstrap = median(trio.flatMap((s) => s.results.map((r) => r.importStart)));
    reportFigure(
      'after Node bootstrap (medians)',
      `${trio.map(describeTiming).join('; ')}; bootstrap ${ms(bootstrap)}`,
    );
    reportFigure(
      'bundle size (minified ESM, source maps apart): loaded at cold start / in all',
      trio.map((s) => `${s.name} ${kb(s.sizes.loadedAtStartBytes)} / ${kb(s.sizes.totalBytes)}`).join(', '),
    );

    // The functions map stack traces lazily (lambdas/handlers/lazy-source-maps.ts); this shows
    // what Node's own --enable-source-maps, which reads every map as its module loads, would cost.
    const eagerSourceMaps = { ...env, NODE_OPTIONS: '--enable-source-maps' };
    const eager = trio.map((s) => ({ ...s, results: [] }));
    await interleave(eager, RUNS_EAGER_SOURCE_MAPS, (s) => probe(probeFile, eventFile, s, eagerSourceMaps));
    reportFigure(
      `the same under Node's --enable-source-maps (median of ${RUNS_EAGER_SOURCE_MAPS})`,
      eager.map((s) => `${s.name} ${ms(sinceStart(s).medianMs)}`).join(' vs '),
    );
    reportFigure('tools/list answer', trio.map(describeAnswer).join('; '));

    // A cold start whose first request calls a tool, one representative tool per toolset: the
    // function then builds that toolset's slice of the graph (lambdas/runtime/wiring.ts) and
    // loads the tools, against the baselines' first call of their one tool.
    const calendar = await store.calendars.createCalendar(LOCAL_OWNER, { name: 'Bench' });
    const project = await store.rules.projects.create({ name: 'Bench' });
    await store.access.setGrant(keyId, calendarResource(calendar.id), 'read');
    await store.access.setGrant(keyId, projectResource(project.project_id), 'read');
    const firstCalls: Record<string, [string, Record<string, unknown>]> = {
      time: ['get_temporal_context', { timezone: 'Europe/Paris' }],
      calendar: ['list_calendars', {}],
      availability: [
        'check_availability',
        { calendar_id: calendar.id, start: '2031-01-06T09:00:00Z', end: '2031-01-06T10:00:00Z' },
      ],
      rules: ['list_projects', {}],
      memory: ['list_branches', { project_id: project.project_id }],
    };
    const baselineCall = writeEvent(outDir, 'call-baseline', toolCallEvent(token, 'echo', { text: 'hello' }));
    for (const [toolset, [tool, args]] of Object.entries(firstCalls)) {
      const callFile = writeEvent(outDir, `call-${toolset}`, toolCallEvent(token, tool, args));
      const calling: Trio = [
        { ...meridian, name: `meridian (${tool})`, results: [] },
        { ...floor, name: 'authenticated-sdk (echo)', results: [] },
        { ...bare, name: 'bare-sdk (echo)', results: [] },
      ];
      await interleave(calling, RUNS_FIRST_CALL, (s) =>
        probe(probeFile, s === calling[0] ? callFile : baselineCall, s, env),
      );
      const failed = calling.filter((s) => s.results.some((r) => r.toolSucceeded !== true));
      if (failed.length > 0) throw new Error(`tools/call failed in: ${failed.map((s) => s.name).join(', ')}`);
      reportCase(
        `cold start to a first tools/call of the ${toolset} toolset (${tool}; median of ${RUNS_FIRST_CALL})`,
        calling,
      );
    }

    // The 2026-07-28 era: no initialize, the version and client in _meta, Mcp-Method checked.
    const modernFile = writeEvent(outDir, 'list-2026', modernToolsListEvent(token));
    const modern: Trio = [
      { ...meridian, name: 'meridian (2026-07-28)', results: [] },
      { ...floor, name: 'authenticated-sdk (2026-07-28)', results: [] },
      { ...bare, name: 'bare-sdk (2026-07-28)', results: [] },
    ];
    await interleave(modern, RUNS_FIRST_CALL, (s) => probe(probeFile, modernFile, s, env));
    if (modern.some((s) => s.results.some((r) => r.tools === null)))
      throw new Error(`2026-07-28 tools/list failed: ${modern.map(describeAnswer).join('; ')}`);
    reportCase(
      `cold start to a first 2026-07-28 (stateless) tools/list (median of ${RUNS_FIRST_CALL})`,
      modern,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
    rmSync(outDir, { recursive: true, force: true });
  }
}
