/**
 * Cold starts measured as the Lambda service causes them: every sample is a fresh `node` process
 * that imports one bundle (built exactly as lib/constructs/lambda-bundling.ts builds it for
 * deployment) and invokes one handler with one event. The time is read inside the child as
 * `performance.now()` when the handler returns: milliseconds since the process started, so spawn
 * and pipe latency in the parent do not count. Shared by the cold-start benches.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import {
  LAMBDA_ENTRY_NAME,
  lambdaEsbuildOptions,
  outputsLoadedAtStart,
} from '../lib/constructs/lambda-bundling.js';
import type { Sample } from './harness.js';

const RESULT_MARKER = 'COLD_START_RESULT ';

/**
 * Runs in the child. Plain ESM so that nothing but the bundle is loaded: no tsx, no TypeScript.
 * The Lambda context is what Powertools reads when it adds context to log lines.
 */
export const PROBE = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [bundle, eventFile, exportName = 'handler'] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: true, functionName: 'meridian-bench', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:meridian-bench',
  memoryLimitInMB: '1024', awsRequestId: event?.requestContext?.requestId ?? 'c0ld-57a7-bench',
  logGroupName: '/aws/lambda/meridian-bench', logStreamName: 'bench',
  getRemainingTimeInMillis: () => 29000, done() {}, fail() {}, succeed() {},
};
const importStart = performance.now();
const loaded = await import(pathToFileURL(bundle).href);
const handler = loaded[exportName];
const imported = performance.now();
const response = await handler(event, context);
const answered = performance.now();
const cpu = process.cpuUsage();
let tools = null;
let toolSucceeded = null;
try {
  const text = String(response?.body ?? '');
  // A JSON response, or the first SSE data line should a server stream its answer.
  const json = text.trimStart().startsWith('{') ? text : (text.match(/^data: (.*)$/m) ?? [])[1];
  const { result } = JSON.parse(json);
  if (Array.isArray(result?.tools)) tools = result.tools.length;
  if (Array.isArray(result?.content)) toolSucceeded = result.isError !== true;
} catch {}
const result = { importStart, importMs: imported - importStart, invokeMs: answered - imported,
  sinceStartMs: answered, cpuMs: (cpu.user + cpu.system) / 1000, statusCode: response?.statusCode ?? null,
  tools, toolSucceeded };
process.stdout.write('\\n${RESULT_MARKER}' + JSON.stringify(result) + '\\n', () => process.exit(0));
`;

export interface ProbeResult {
  importStart: number;
  importMs: number;
  invokeMs: number;
  sinceStartMs: number;
  /**
   * CPU time the process used until the answer (user + system), bootstrap included: unlike the
   * elapsed times, it barely moves with the load other processes put on the machine.
   */
  cpuMs: number;
  /** An HTTP handler's status; null for other handlers (a booking step). */
  statusCode: number | null;
  tools: number | null;
  /** For a tools/call: whether the tool answered without isError. */
  toolSucceeded: boolean | null;
}

export interface Subject {
  name: string;
  /** The entry file (index.mjs) of the bundle's folder. */
  bundle: string;
  /** The export the function runs (`index.<export>`). @default 'handler' */
  exportName?: string;
  results: ProbeResult[];
  sizes: { totalBytes: number; loadedAtStartBytes: number };
}

/** What the Lambda service and the function's own configuration put in the environment. */
export const LAMBDA_ENV: Readonly<Record<string, string>> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  TZ: 'UTC',
  AWS_REGION: 'us-east-1',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  AWS_LAMBDA_FUNCTION_NAME: 'meridian-bench',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  POWERTOOLS_SERVICE_NAME: 'meridian',
};

export async function bundle(name: string, entry: string, outDir: string): Promise<Subject> {
  const dir = join(outDir, name);
  const { metafile } = await build({ ...lambdaEsbuildOptions(entry, dir), metafile: true });
  return { name, bundle: join(dir, `${LAMBDA_ENTRY_NAME}.mjs`), results: [], sizes: bundleSizes(metafile) };
}

/**
 * The bundle's size in all, and what a cold start loads: the entry and the chunks it imports
 * statically (chunks behind a dynamic `import()` load on first use).
 */
export function bundleSizes(metafile: Metafile): { totalBytes: number; loadedAtStartBytes: number } {
  const bytes = (files: string[]) => files.reduce((sum, file) => sum + metafile.outputs[file]!.bytes, 0);
  const code = Object.keys(metafile.outputs).filter((file) => file.endsWith('.mjs'));
  return { totalBytes: bytes(code), loadedAtStartBytes: bytes(outputsLoadedAtStart(metafile)) };
}

export function probe(
  probeFile: string,
  eventFile: string,
  subject: Subject,
  env: Record<string, string>,
): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const args = [probeFile, subject.bundle, eventFile, subject.exportName ?? 'handler'];
    const child = spawn(process.execPath, args, {
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

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function sample(subject: Subject, pick: (r: ProbeResult) => number): Sample {
  const xs = subject.results.map(pick).sort((a, b) => a - b);
  return {
    name: subject.name,
    medianMs: median(xs),
    p90Ms: xs[Math.min(xs.length - 1, Math.floor(0.9 * xs.length))]!,
    runs: xs.length,
  };
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function ms(x: number): string {
  return `${x.toFixed(1)} ms`;
}

/** Where the time goes once Node is up: importing the bundle, then answering the first request. */
export function describeTiming(s: Subject): string {
  const importMs = median(s.results.map((r) => r.importMs));
  const invokeMs = median(s.results.map((r) => r.invokeMs));
  return `${s.name} import ${ms(importMs)} + first invoke ${ms(invokeMs)}`;
}

/** Runs each subject `runs` times, alternating which goes first so that drift hits both alike. */
export async function interleave(
  subjects: readonly Subject[],
  runs: number,
  measureOnce: (s: Subject) => Promise<ProbeResult>,
): Promise<void> {
  // Forwards one round, backwards the next (A B C C B A …): no subject always runs first.
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    for (const subject of order) subject.results.push(await measureOnce(subject));
  }
}

/**
 * What the stack puts in a Meridian function's environment, pointed at a local table: the
 * functions read and write it as on AWS (the KMS key and state machine are never called).
 */
export function tableEnvironment(table: { tableName: string; endpoint: string }): Record<string, string> {
  return {
    MERIDIAN_TABLE_NAME: table.tableName,
    MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-0000-0000-000000000000',
    MERIDIAN_BOOKING_STATE_MACHINE_ARN:
      'arn:aws:states:us-east-1:123456789012:stateMachine:meridian-bench-booking',
    AWS_ENDPOINT_URL_DYNAMODB: table.endpoint,
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
