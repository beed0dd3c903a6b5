/**
 * Cold start of each booking-step function and of the sync function against the floor of what it
 * promises: a minimal Lambda that validates its event with zod and sends the same table requests,
 * in the same order, each awaited (fixtures/minimal-table-lambda.ts), all bundled as deployed.
 * What a step adds over that floor is its own code: loading it, the logger, the middleware, its
 * schemas. The ratios against a floor that reads one item, and against the floor behind middy and
 * Powertools' Logger (the libraries every Meridian function runs on), are reported beside it.
 * Each sample is a fresh process that imports the bundle and answers one real event: the state
 * the state machine would pass that step (made by the earlier steps, run in this process on the
 * same table) or the schedule's `{}` — so the time includes what a step loads on first use.
 * Samples alternate A B C C B A … so machine load hits all alike. A first run, untimed, goes
 * through a proxy that notes the table requests of the first answer: the floor's list.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOKING_TASKS } from '../lambdas/booking/booking-definition.js';
import { LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import type { BookingInput } from '../lambdas/core/booking/booking-schemas.js';
import { STEP_ERROR } from '../lambdas/core/booking/step-errors.js';
import type { BookingStepName } from '../lambdas/core/ports/index.js';
import { BOOKING_STEPS_ENTRY } from '../lib/constructs/booking-workflow.js';
import { SYNC_HANDLER_ENTRY } from '../lib/constructs/sync-schedule.js';
import { startTableRequestLog } from '../test/support/table-request-log.js';
import { startTestRuntime, type TestRuntime } from '../test/support/test-runtime.js';
import { reportFigure, reportRatio } from './harness.js';
import {
  bundle,
  describeTiming,
  interleave,
  kb,
  LAMBDA_ENV,
  ms,
  PROBE,
  type ProbeResult,
  probe,
  type Subject,
  sample,
  tableEnvironment,
} from './lambda-probe.js';

const RUNS = 9;
const BASELINE_ENTRY = fileURLToPath(new URL('./fixtures/minimal-table-lambda.ts', import.meta.url));
const LOGGED_BASELINE_ENTRY = fileURLToPath(
  new URL('./fixtures/minimal-logged-table-lambda.ts', import.meta.url),
);
const HOUR_MS = 3_600_000;

/** The state each step is invoked with, prepared by the steps before it (booking.asl.json's paths). */
export function stepEvents(runtime: TestRuntime, calendar: BookingInput['calendar']) {
  const steps = runtime.bookingSteps;
  let booked = 0;
  // A fresh one-hour slot and key per sample, so that no sample meets another's hold.
  const nextInput = (): BookingInput => {
    booked += 1;
    const start = Date.parse('2031-01-06T00:00:00Z') + booked * HOUR_MS;
    return {
      booking_id: `bench-${booked}-${Date.now()}`,
      idempotency_key: `bench-key-${booked}-${Date.now()}`,
      request_hash: 'bench',
      principal: 'local-owner',
      calendar,
      start: new Date(start).toISOString(),
      end: new Date(start + HOUR_MS).toISOString(),
      summary: 'Cold start bench',
    };
  };
  const locked = async () => {
    const input = nextInput();
    return { ...input, lock: await steps.lock(input) };
  };
  const events: Record<BookingStepName, () => Promise<unknown>> = {
    lock: async () => nextInput(),
    verify: locked,
    write: locked,
    release: async () => {
      const state = await locked();
      await steps.verify(state);
      return { ...state, written: await steps.write(state) };
    },
    // The Catch path after Verify found the slot taken: drop the hold and the pending claim.
    compensate: async () => ({
      ...(await locked()),
      failure: {
        Error: STEP_ERROR.slotTaken,
        Cause: JSON.stringify({ code: 'SLOT_TAKEN', message: 'The slot is taken.', details: {} }),
      },
    }),
  };
  return events;
}

export async function run(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'meridian-step-cold-start-'));
  const runtime = await startTestRuntime();
  const tableLog = await startTableRequestLog(runtime.endpoint);
  try {
    const stepsBundle = await bundle('booking-steps', BOOKING_STEPS_ENTRY, outDir);
    const syncBundle = await bundle('sync', SYNC_HANDLER_ENTRY, outDir);
    const baseline = await bundle('minimal-table', BASELINE_ENTRY, outDir);
    const loggedBaseline = await bundle('minimal-table-logged', LOGGED_BASELINE_ENTRY, outDir);
    const probeFile = join(outDir, 'probe.mjs');
    writeFileSync(probeFile, PROBE);
    const env = { ...LAMBDA_ENV, ...tableEnvironment(runtime), POWERTOOLS_LOG_LEVEL: 'WARN' };
    // Untimed runs only: the table through a proxy that notes each request's operation.
    const loggedEnv = { ...env, AWS_ENDPOINT_URL_DYNAMODB: tableLog.endpoint };
    const created = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Bench', time_zone: 'UTC' });
    const events = stepEvents(runtime, await runtime.registry.requireCalendar(created.id));

    let written = 0;
    const invoke = async (subject: Subject, event: unknown, withEnv = env): Promise<ProbeResult> => {
      written += 1;
      const eventFile = join(outDir, `event-${written}.json`);
      writeFileSync(eventFile, JSON.stringify(event));
      return probe(probeFile, eventFile, subject, withEnv);
    };
    /** The operations of `subject`'s first answer to `input`, in order, noted by the proxy. */
    const requestsOf = async (subject: Subject, input: unknown) => {
      tableLog.take();
      await invoke(subject, input, loggedEnv);
      return tableLog.take();
    };
    const measureAgainstFloor = async (subject: Subject, event: () => Promise<unknown>) => {
      // One untimed run first: it puts the bundle in the page cache, and on a fresh table it
      // records the schema version, which no later cold start writes again.
      await invoke(subject, await event());
      // The floor sends what the function sent: its load-time read (every function's first
      // request is the schema check) and then the same operations in the same order.
      const requests = await requestsOf(subject, await event());
      if (requests[0] !== 'GetItem') {
        throw new Error(
          `${subject.name}: the first table request was ${requests[0]}, not the schema check's GetItem`,
        );
      }
      const floor: Subject = {
        ...baseline,
        name: `minimal-table, same ${requests.length} requests`,
        results: [],
      };
      const oneRead: Subject = { ...baseline, name: 'minimal-table, one read', results: [] };
      const loggedFloor: Subject = {
        ...loggedBaseline,
        name: `minimal-table with middy and Powertools' Logger, same ${requests.length} requests`,
        results: [],
      };
      const inputOf = async (s: Subject) =>
        s === floor || s === loggedFloor
          ? { operations: requests.slice(1) }
          : s === oneRead
            ? {}
            : await event();
      const measureOnce = async (s: Subject) => invoke(s, await inputOf(s));
      await measureOnce(floor);
      await measureOnce(loggedFloor);
      await interleave([subject, floor, oneRead, loggedFloor], RUNS, measureOnce);
      const sinceStart = (s: Subject) => sample(s, (r) => r.sinceStartMs);
      reportRatio(
        `cold start of ${subject.name} to its first answer (since process start, median of ${RUNS})`,
        { candidate: sinceStart(subject), baseline: sinceStart(floor) },
        { kind: 'slowdown', value: 1.5 },
      );
      reportFigure(
        `${subject.name} against a floor that reads one item (elapsed, medians)`,
        `${ms(sinceStart(subject).medianMs)} vs ${ms(sinceStart(oneRead).medianMs)} → ${(sinceStart(subject).medianMs / sinceStart(oneRead).medianMs).toFixed(2)}×`,
      );
      reportFigure(
        `${subject.name} against the floor behind middy and Powertools' Logger (elapsed, medians)`,
        `${ms(sinceStart(subject).medianMs)} vs ${ms(sinceStart(loggedFloor).medianMs)} → ${(sinceStart(subject).medianMs / sinceStart(loggedFloor).medianMs).toFixed(2)}×`,
      );
      reportFigure(
        `${subject.name} after Node bootstrap (medians)`,
        `${describeTiming(subject)}; ${describeTiming(floor)}`,
      );
      const cpu = (s: Subject) => sample(s, (r) => r.cpuMs).medianMs;
      reportFigure(
        `${subject.name}: CPU time to its first answer (medians; steadier than elapsed time on a loaded machine)`,
        `${ms(cpu(subject))} vs ${ms(cpu(floor))} → ${(cpu(subject) / cpu(floor)).toFixed(2)}×`,
      );
      const floorRequests = await requestsOf(floor, await inputOf(floor));
      reportFigure(
        `${subject.name}: table requests of its first answer`,
        `${requests.length} (${requests.join(', ')}); the floor ${floorRequests.length} (${floorRequests.join(', ')})`,
      );
    };

    for (const task of BOOKING_TASKS) {
      const subject: Subject = {
        ...stepsBundle,
        name: `the ${task.state} step`,
        exportName: task.handler,
        results: [],
      };
      await measureAgainstFloor(subject, events[task.step]);
    }
    await measureAgainstFloor({ ...syncBundle, name: 'the sync function', results: [] }, async () => ({}));
    reportFigure(
      'bundle size (minified ESM, source maps apart): loaded at cold start / in all',
      [stepsBundle, syncBundle, baseline, loggedBaseline]
        .map((s) => `${s.name} ${kb(s.sizes.loadedAtStartBytes)} / ${kb(s.sizes.totalBytes)}`)
        .join(', '),
    );
  } finally {
    await tableLog.close();
    await runtime.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
