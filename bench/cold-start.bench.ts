/**
 * Cold start of the MCP Lambda against a minimal MCP SDK Lambda, both bundled exactly as
 * `McpFunction` bundles for deployment (lib/constructs/lambda-bundling.ts: split into chunks,
 * with tools/list computed at bundle time). The baseline builds its one tool's listing at run
 * time, as the SDK's McpServer does.
 *
 * Every sample is a fresh `node` process that imports one bundle and answers one API Gateway
 * (REST, v1) `tools/list` event, which is what a Lambda cold start does after the runtime has
 * booted. The time is read inside the child as `performance.now()` when the handler returns:
 * milliseconds since the process started (`performance.timeOrigin`), so spawn and pipe latency
 * in the parent do not count. Samples alternate A B B A … so machine load hits both alike.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { build, type Metafile } from 'esbuild';
import {
  LAMBDA_ENTRY_NAME,
  lambdaEsbuildOptions,
  outputsLoadedAtStart,
  SOURCE_MAPS_NODE_OPTIONS,
} from '../lib/constructs/lambda-bundling.js';
import { MCP_HANDLER_ENTRY } from '../lib/constructs/mcp-function.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { reportFigure, reportRatio, type Sample } from './harness.js';

const RUNS = 15;
/** Fewer runs for the side measurement without source maps: it informs a choice, not the target. */
const RUNS_WITHOUT_SOURCE_MAPS = 7;
/** Fewer runs for the first tools/call: it shows where the deferred loading went, no target. */
const RUNS_FIRST_CALL = 7;
const BASELINE_ENTRY = fileURLToPath(new URL('./fixtures/minimal-mcp-lambda.ts', import.meta.url));
const RESULT_MARKER = 'COLD_START_RESULT ';

/**
 * A stateless `tools/list` with no `initialize` first, as a stateless MCP server allows, with the
 * Bearer key Meridian checks against its table (the baseline ignores the header).
 */
const toolsListEvent = (token: string): APIGatewayProxyEvent => {
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

/** The same request shape calling one tool. */
const toolCallEvent = (token: string, name: string, args: Record<string, unknown>): APIGatewayProxyEvent => ({
  ...toolsListEvent(token),
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

/**
 * Runs in the child. Plain ESM so that nothing but the bundle is loaded: no tsx, no TypeScript.
 * The Lambda context is what Powertools reads when it adds context to log lines.
 */
const PROBE = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [bundle, eventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: true, functionName: 'meridian-bench', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:meridian-bench',
  memoryLimitInMB: '1024', awsRequestId: event.requestContext.requestId,
  logGroupName: '/aws/lambda/meridian-bench', logStreamName: 'bench',
  getRemainingTimeInMillis: () => 29000, done() {}, fail() {}, succeed() {},
};
const importStart = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const imported = performance.now();
const response = await handler(event, context);
const answered = performance.now();
let tools = null;
let toolSucceeded = null;
try {
  const text = String(response.body ?? '');
  // A JSON response, or the first SSE data line should a server stream its answer.
  const json = text.trimStart().startsWith('{') ? text : (text.match(/^data: (.*)$/m) ?? [])[1];
  const { result } = JSON.parse(json);
  if (Array.isArray(result?.tools)) tools = result.tools.length;
  if (Array.isArray(result?.content)) toolSucceeded = result.isError !== true;
} catch {}
const result = { importStart, importMs: imported - importStart, invokeMs: answered - imported,
  sinceStartMs: answered, statusCode: response.statusCode, tools, toolSucceeded };
process.stdout.write('\\n${RESULT_MARKER}' + JSON.stringify(result) + '\\n', () => process.exit(0));
`;

interface ProbeResult {
  importStart: number;
  importMs: number;
  invokeMs: number;
  sinceStartMs: number;
  statusCode: number;
  tools: number | null;
  /** For a tools/call: whether the tool answered without isError. */
  toolSucceeded: boolean | null;
}

interface Subject {
  name: string;
  /** The entry file (index.mjs) of the bundle's folder. */
  bundle: string;
  results: ProbeResult[];
  sizes: { totalBytes: number; loadedAtStartBytes: number };
}

/** What the Lambda service and the function's own configuration put in the environment. */
const LAMBDA_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  TZ: 'UTC',
  AWS_REGION: 'us-east-1',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  AWS_LAMBDA_FUNCTION_NAME: 'meridian-bench',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  POWERTOOLS_SERVICE_NAME: 'meridian',
  NODE_OPTIONS: SOURCE_MAPS_NODE_OPTIONS,
};

async function bundle(name: string, entry: string, outDir: string): Promise<Subject> {
  const dir = join(outDir, name);
  const { metafile } = await build({ ...lambdaEsbuildOptions(entry, dir), metafile: true });
  return { name, bundle: join(dir, `${LAMBDA_ENTRY_NAME}.mjs`), results: [], sizes: bundleSizes(metafile) };
}

/**
 * The bundle's size in all, and what a cold start loads: the entry and the chunks it imports
 * statically (chunks behind a dynamic `import()` load on first use).
 */
function bundleSizes(metafile: Metafile): { totalBytes: number; loadedAtStartBytes: number } {
  const bytes = (files: string[]) => files.reduce((sum, file) => sum + metafile.outputs[file]!.bytes, 0);
  const code = Object.keys(metafile.outputs).filter((file) => file.endsWith('.mjs'));
  return { totalBytes: bytes(code), loadedAtStartBytes: bytes(outputsLoadedAtStart(metafile)) };
}

function probe(
  probeFile: string,
  eventFile: string,
  subject: Subject,
  env: Record<string, string>,
): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [probeFile, subject.bundle, eventFile], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${subject.name}: probe exited with ${code}\n${stderr || stdout}`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as ProbeResult);
    });
  });
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function sample(subject: Subject, pick: (r: ProbeResult) => number): Sample {
  const xs = subject.results.map(pick).sort((a, b) => a - b);
  return {
    name: subject.name,
    medianMs: median(xs),
    p90Ms: xs[Math.min(xs.length - 1, Math.floor(0.9 * xs.length))]!,
    runs: xs.length,
  };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function ms(x: number): string {
  return `${x.toFixed(1)} ms`;
}

/** Where the time goes once Node is up: importing the bundle, then answering the first request. */
function describeTiming(s: Subject): string {
  const importMs = median(s.results.map((r) => r.importMs));
  const invokeMs = median(s.results.map((r) => r.invokeMs));
  return `${s.name} import ${ms(importMs)} + first invoke ${ms(invokeMs)}`;
}

function describeAnswer(s: Subject): string {
  const { statusCode, tools } = s.results[0]!;
  const listed = tools === null ? 'no result.tools in the body' : `${tools} tool${tools === 1 ? '' : 's'}`;
  return `${s.name} → HTTP ${statusCode}, ${listed}`;
}

/** Runs each subject `runs` times, alternating which goes first so that drift hits both alike. */
async function interleave(
  subjects: [Subject, Subject],
  runs: number,
  measureOnce: (s: Subject) => Promise<ProbeResult>,
): Promise<void> {
  const [a, b] = subjects;
  for (let round = 0; round < runs; round++) {
    for (const subject of round % 2 === 0 ? [a, b] : [b, a]) subject.results.push(await measureOnce(subject));
  }
}

export async function run(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'meridian-cold-start-'));
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const meridian = await bundle('meridian', MCP_HANDLER_ENTRY, outDir);
    const minimal = await bundle('minimal-sdk', BASELINE_ENTRY, outDir);
    const probeFile = join(outDir, 'probe.mjs');
    const eventFile = join(outDir, 'event.json');
    // The function authenticates against its table: a local DynamoDB (dynalite) with one key.
    const store = await startTestRuntime();
    cleanups.push(() => store.close());
    const { token } = await store.newKey('bench');
    Object.assign(LAMBDA_ENV, {
      MERIDIAN_TABLE_NAME: store.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      MERIDIAN_BOOKING_STATE_MACHINE_ARN:
        'arn:aws:states:us-east-1:123456789012:stateMachine:meridian-bench-booking',
      AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    writeFileSync(probeFile, PROBE);
    writeFileSync(eventFile, JSON.stringify(toolsListEvent(token)));
    const asDeployed = (s: Subject) => probe(probeFile, eventFile, s, LAMBDA_ENV);

    // One untimed run each, so that both bundles are in the page cache before timing starts.
    await asDeployed(meridian);
    await asDeployed(minimal);
    await interleave([meridian, minimal], RUNS, asDeployed);

    const sinceStart = (s: Subject) => sample(s, (r) => r.sinceStartMs);
    reportRatio(
      `cold start to first tools/list response (since process start, median of ${RUNS})`,
      { candidate: sinceStart(meridian), baseline: sinceStart(minimal) },
      { kind: 'slowdown', value: 1.5 },
    );
    const bootstrap = median([...meridian.results, ...minimal.results].map((r) => r.importStart));
    reportFigure(
      'after Node bootstrap (medians)',
      `${describeTiming(meridian)}; ${describeTiming(minimal)}; bootstrap ${ms(bootstrap)}`,
    );
    reportFigure(
      'bundle size (minified ESM, source maps apart): loaded at cold start / in all',
      [meridian, minimal]
        .map((s) => `${s.name} ${kb(s.sizes.loadedAtStartBytes)} / ${kb(s.sizes.totalBytes)}`)
        .join(', '),
    );

    // The function runs with --enable-source-maps; this shows what that setting costs.
    const { NODE_OPTIONS: _, ...withoutSourceMaps } = LAMBDA_ENV;
    const plain: [Subject, Subject] = [
      { ...meridian, results: [] },
      { ...minimal, results: [] },
    ];
    await interleave(plain, RUNS_WITHOUT_SOURCE_MAPS, (s) =>
      probe(probeFile, eventFile, s, withoutSourceMaps),
    );
    reportFigure(
      `same without --enable-source-maps (median of ${RUNS_WITHOUT_SOURCE_MAPS})`,
      plain.map((s) => `${s.name} ${ms(sinceStart(s).medianMs)}`).join(' vs '),
    );
    reportFigure('tools/list answer', `${describeAnswer(meridian)}; ${describeAnswer(minimal)}`);

    // A cold start whose first request calls a tool: Meridian then loads the tools and the
    // services it deferred, so this shows what the split moved rather than saved.
    const callEvents = new Map([
      [meridian.name, toolCallEvent(token, 'get_temporal_context', { timezone: 'Europe/Paris' })],
      [minimal.name, toolCallEvent(token, 'echo', { text: 'hello' })],
    ]);
    const callFiles = new Map(
      [...callEvents].map(([name, event]) => {
        const file = join(outDir, `call-${name}.json`);
        writeFileSync(file, JSON.stringify(event));
        return [name, file];
      }),
    );
    const calling: [Subject, Subject] = [
      { ...meridian, results: [] },
      { ...minimal, results: [] },
    ];
    await interleave(calling, RUNS_FIRST_CALL, (s) =>
      probe(probeFile, callFiles.get(s.name)!, s, LAMBDA_ENV),
    );
    const failed = calling.filter((s) => s.results.some((r) => r.toolSucceeded !== true));
    if (failed.length > 0) throw new Error(`tools/call failed in: ${failed.map((s) => s.name).join(', ')}`);
    reportFigure(
      `cold start to a first tools/call instead (median of ${RUNS_FIRST_CALL}; no target)`,
      calling.map((s) => `${s.name} ${ms(sinceStart(s).medianMs)}`).join(' vs '),
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
    rmSync(outDir, { recursive: true, force: true });
  }
}
