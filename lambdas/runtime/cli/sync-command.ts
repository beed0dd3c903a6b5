import cliProgress from 'cli-progress';
import { type SyncSummary, syncAll } from '../../core/shadow/sync-all.js';
import type { CalendarSyncResult, SyncDeps, SyncProgress } from '../../core/shadow/sync-types.js';
import type { Environment } from '../environment.js';
import type { CliOutput } from './access-commands.js';

export interface SyncFlags {
  calendar?: string[] | undefined;
  full?: boolean | undefined;
}

/** Where progress goes: a bar per calendar on a terminal, plain lines otherwise. */
export interface ProgressView {
  update(progress: SyncProgress): void;
  stop(): void;
}

const TERMINAL: ReadonlySet<SyncProgress['phase']> = new Set(['done', 'unchanged', 'skipped', 'failed']);

/**
 * Bars on a terminal, unless CI says otherwise (CI logs keep every frame of a redrawn bar).
 *
 * @example
 * isInteractive(process.stderr, processEnvironment()); // false under CI=true
 */
export function isInteractive(stream: { isTTY?: boolean }, environment: Pick<Environment, 'ci'>): boolean {
  return stream.isTTY === true && !environment.ci;
}

/** One cli-progress bar per calendar, drawn on `stream` (stderr: stdout keeps the summary). */
export function progressBars(stream: NodeJS.WritableStream): ProgressView {
  const bars = new cliProgress.MultiBar(
    {
      stream,
      format: ' {bar} {phase} {value}/{total}  {calendar}',
      hideCursor: true,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  const byCalendar = new Map<string, cliProgress.SingleBar>();
  return {
    update: ({ calendar_id, phase, done, total }) => {
      const bar = byCalendar.get(calendar_id) ?? bars.create(1, 0, { calendar: calendar_id, phase });
      byCalendar.set(calendar_id, bar);
      // A bar needs a total above zero; a calendar with nothing to write is complete when it ends.
      const finished = TERMINAL.has(phase);
      bar.setTotal(Math.max(total, 1));
      bar.update(finished ? Math.max(total, 1) : done, { phase });
    },
    stop: () => bars.stop(),
  };
}

/** One line each time a calendar finishes, numbered: what a log keeps of a progress bar. */
export function progressLines(out: CliOutput): ProgressView {
  const seen = new Set<string>();
  let finished = 0;
  return {
    update: ({ calendar_id, phase }) => {
      seen.add(calendar_id);
      if (!TERMINAL.has(phase)) return;
      finished += 1;
      out.line(`[${finished}/${seen.size}] ${calendar_id} ${phase}`);
    },
    stop: () => undefined,
  };
}

/**
 * `meridian sync [--calendar ID]… [--full]`: brings the shadow of every connected calendar (or
 * the ones named) up to date, with progress, then prints a summary. Returns the summary; the
 * caller exits with 1 when a calendar failed.
 */
export async function syncCommand(
  deps: SyncDeps,
  flags: SyncFlags,
  out: CliOutput,
  view: ProgressView,
): Promise<SyncSummary> {
  let summary: SyncSummary;
  try {
    summary = await syncAll(deps, {
      ...(flags.calendar?.length ? { calendarIds: flags.calendar } : {}),
      ...(flags.full ? { full: true } : {}),
      onProgress: (progress) => view.update(progress),
    });
  } finally {
    view.stop();
  }
  for (const calendar of summary.calendars) out.line(describe(calendar));
  out.line(
    `Summary: ${plural(summary.synced, 'calendar')} synced, ${summary.unchanged} unchanged, ` +
      `${summary.skipped} skipped, ${summary.failed} failed; ` +
      `${plural(summary.upserted, 'event')} upserted, ${summary.deleted} deleted.` +
      (summary.native > 0 ? ` (${plural(summary.native, 'native calendar')} need no sync.)` : ''),
  );
  const failures = summary.calendars.filter((c) => c.status === 'failed');
  if (failures.length > 0) {
    out.error('Failures:');
    for (const failure of failures) {
      out.error(`  ${failure.calendar_id}: ${failure.error?.code} — ${failure.error?.message}`);
    }
  }
  return summary;
}

function describe(result: CalendarSyncResult): string {
  switch (result.status) {
    case 'synced':
      return `  ${result.calendar_id}  synced (${result.mode}${result.reason ? `: ${result.reason}` : ''}), ${result.upserted} upserted, ${result.deleted} deleted`;
    case 'unchanged':
      return `  ${result.calendar_id}  unchanged`;
    case 'skipped':
      return `  ${result.calendar_id}  skipped: ${result.reason}`;
    case 'failed':
      return `  ${result.calendar_id}  FAILED: ${result.error?.code}`;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
