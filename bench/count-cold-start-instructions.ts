/**
 * Counts the instructions a cold start executes (valgrind's callgrind), for each function against
 * its baseline: unlike elapsed or CPU time, the count barely moves with what else runs on the
 * machine, so it can tell 1.4× from 1.6× where `npm run bench` on shared cores cannot. It does not
 * see waiting: a round trip awaited costs no instructions, so wall-time changes need the bench.
 *
 *   npx tsx bench/count-cold-start-instructions.ts [case-pattern]   # a regular expression, e.g. 'mcp|step'
 *
 * Each case is one fresh `node --single-threaded` process under callgrind importing one bundle
 * (built as deployed) and answering one event, as the cold-start benches do; the table is a local
 * DynamoDB (dynalite) served from this process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOKING_TASKS } from '../lambdas/booking/booking-definition.js';
import { calendarResource, LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import { projectResource } from '../lambdas/core/rules/project-access.js';
import { BOOKING_STEPS_ENTRY } from '../lib/constructs/booking-workflow.js';
import { MCP_HANDLER_ENTRY } from '../lib/constructs/mcp-function.js';
import { SYNC_HANDLER_ENTRY } from '../lib/constructs/sync-schedule.js';
import { startTableRequestLog } from '../test/support/table-request-log.js';
import { startTestRuntime } from '../test/support/test-runtime.js';
import { modernToolsListEvent, toolCallEvent, toolsListEvent } from './cold-start.bench.js';
import { bundle, LAMBDA_ENV, PROBE, probe, type Subject, tableEnvironment } from './lambda-probe.js';
import { stepEvents } from './step-cold-start.bench.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function countInstructions(
  probeFile: string,
  eventFile: string,
  subject: Subject,
  env: Record<string, string>,
) {
  return new Promise<number>((resolve, reject) => {
    const args = [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      probeFile,
      subject.bundle,
      eventFile,
      subject.exportName ?? 'handler',
    ];
    const child = spawn('valgrind', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const collected = /Collected : (\d+)/.exec(stderr);
      if (code !== 0 || collected === null || !stdout.includes('COLD_START_RESULT')) {
        reject(
          new Error(`${subject.name}: exited with ${code}\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`),
        );
        return;
      }
      const result = JSON.parse(stdout.split('COLD_START_RESULT ')[1]!.split('\n')[0]!);
      if (result.toolSucceeded === false) reject(new Error(`${subject.name}: the tool failed\n${stdout}`));
      else resolve(Number(collected[1]));
    });
  });
}

const pattern = new RegExp(process.argv[2] ?? '');
const outDir = mkdtempSync(join(tmpdir(), 'meridian-instructions-'));
// Holds as long as the functions' own (LOCK_TTL_SECS below): a step runs for minutes under callgrind.
const runtime = await startTestRuntime({ lockTtlSeconds: 300 });
const tableLog = await startTableRequestLog(runtime.endpoint);
try {
  const mcp = await bundle('meridian', MCP_HANDLER_ENTRY, outDir);
  const minimalMcp = await bundle('minimal-sdk', fixture('minimal-mcp-lambda.ts'), outDir);
  const steps = await bundle('booking-steps', BOOKING_STEPS_ENTRY, outDir);
  const sync = await bundle('sync', SYNC_HANDLER_ENTRY, outDir);
  const minimalTable = await bundle('minimal-table', fixture('minimal-table-lambda.ts'), outDir);
  const loggedTable = await bundle('minimal-table-logged', fixture('minimal-logged-table-lambda.ts'), outDir);
  const probeFile = join(outDir, 'probe.mjs');
  writeFileSync(probeFile, PROBE);
  // A long lock: under callgrind a step runs some fifty times slower than its default lock allows.
  const env = {
    ...LAMBDA_ENV,
    ...tableEnvironment(runtime),
    POWERTOOLS_LOG_LEVEL: 'WARN',
    LOCK_TTL_SECS: '300',
  };

  const { token, keyId } = await runtime.newKey('bench');
  const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Bench', time_zone: 'UTC' });
  const project = await runtime.rules.projects.create({ name: 'Bench' });
  await runtime.access.setGrant(keyId, calendarResource(calendar.id), 'read');
  await runtime.access.setGrant(keyId, projectResource(project.project_id), 'read');
  const events = stepEvents(runtime, await runtime.registry.requireCalendar(calendar.id));

  /** The table operations of `subject`'s answer to `input` (run once, uncounted, through a proxy). */
  const requestsOf = async (subject: Subject, input: unknown) => {
    const file = join(outDir, 'logged-event.json');
    writeFileSync(file, JSON.stringify(input));
    tableLog.take();
    await probe(probeFile, file, subject, { ...env, AWS_ENDPOINT_URL_DYNAMODB: tableLog.endpoint });
    return tableLog.take();
  };
  /** A step's floor event: the same table requests after the load-time read, noted once per step. */
  const floorEvents = new Map<string, Promise<unknown>>();
  const floorEventOf = (task: (typeof BOOKING_TASKS)[number]) => {
    const noted =
      floorEvents.get(task.step) ??
      (async () => ({
        operations: (
          await requestsOf({ ...steps, exportName: task.handler }, await events[task.step]())
        ).slice(1),
      }))();
    floorEvents.set(task.step, noted);
    return noted;
  };
  const cases: [string, Subject, () => Promise<unknown>][] = [
    ['baseline mcp tools/list', minimalMcp, async () => toolsListEvent(token)],
    ['baseline mcp echo', minimalMcp, async () => toolCallEvent(token, 'echo', { text: 'hello' })],
    ['mcp tools/list', mcp, async () => toolsListEvent(token)],
    ['mcp tools/list 2026', mcp, async () => modernToolsListEvent(token)],
    ['mcp time', mcp, async () => toolCallEvent(token, 'get_temporal_context', { timezone: 'Europe/Paris' })],
    ['mcp calendar', mcp, async () => toolCallEvent(token, 'list_calendars', {})],
    [
      'mcp availability',
      mcp,
      async () =>
        toolCallEvent(token, 'check_availability', {
          calendar_id: calendar.id,
          start: '2031-01-06T09:00:00Z',
          end: '2031-01-06T10:00:00Z',
        }),
    ],
    ['mcp rules', mcp, async () => toolCallEvent(token, 'list_projects', {})],
    [
      'mcp memory',
      mcp,
      async () => toolCallEvent(token, 'list_branches', { project_id: project.project_id }),
    ],
    ['baseline table', minimalTable, async () => ({})],
    ...BOOKING_TASKS.flatMap((task): [string, Subject, () => Promise<unknown>][] => [
      [`step ${task.state}`, { ...steps, exportName: task.handler }, events[task.step]],
      // The step's floor: the same table requests after the load-time read (step-cold-start.bench.ts),
      // and the same behind middy and Powertools' Logger, which every Meridian function runs on.
      [`baseline table as ${task.state}`, minimalTable, () => floorEventOf(task)],
      [`logged table as ${task.state}`, loggedTable, () => floorEventOf(task)],
    ]),
    ['sync', sync, async () => ({})],
  ];
  // The key's budget item is made by its first request, which then writes where later ones update:
  // one request before any count, so that every counted Meridian case meets the same table.
  const firstRequest = join(outDir, 'first-request.json');
  writeFileSync(firstRequest, JSON.stringify(toolsListEvent(token)));
  await probe(probeFile, firstRequest, mcp, env);

  let written = 0;
  for (const [name, subject, event] of cases.filter(([name]) => pattern.test(name))) {
    written += 1;
    const eventFile = join(outDir, `event-${written}.json`);
    writeFileSync(eventFile, JSON.stringify(await event()));
    try {
      const count = await countInstructions(probeFile, eventFile, { ...subject, name }, env);
      console.log(`${name.padEnd(28)} ${(count / 1e9).toFixed(3)} G`);
    } catch (error) {
      console.log(`${name.padEnd(28)} failed: ${error instanceof Error ? error.message : error}`);
    }
  }
} finally {
  await tableLog.close();
  await runtime.close();
  rmSync(outDir, { recursive: true, force: true });
}
