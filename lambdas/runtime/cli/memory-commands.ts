import cliProgress from 'cli-progress';
import { LOCAL_OWNER } from '../../core/access/rights.js';
import type { MemorySnapshots } from '../../core/memory/snapshots/memory-snapshots.js';
import { RESTORE_PHASES } from '../../core/memory/snapshots/restore-snapshot.js';
import { PULL_PHASES, PUSH_PHASES } from '../../core/memory/snapshots/sync-to-cloud.js';
import { type CliOutput, UsageError } from './access-commands.js';

/** Where a command's steps show: one bar on a terminal, a line per step otherwise. */
export interface StepView {
  step(name: string): void;
  stop(): void;
}

/**
 * One cli-progress bar over a command's known steps, on `stream` (stderr: stdout keeps the result).
 *
 * @example
 * const view = stepBar(process.stderr, RESTORE_PHASES);
 */
export function stepBar(stream: NodeJS.WritableStream, steps: readonly string[]): StepView {
  const bar = new cliProgress.SingleBar(
    { stream, format: ' {bar} {value}/{total}  {step}', hideCursor: true, barsize: 24 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(steps.length, 0, { step: 'starting' });
  let done = 0;
  let stopped = false;
  return {
    step: (name) => {
      done = Math.max(done, steps.indexOf(name) + 1);
      bar.update(done, { step: name });
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

/** `[2/5] backup`: what a log keeps of a progress bar. */
export function stepLines(out: CliOutput, steps: readonly string[]): StepView {
  return {
    step: (name) => out.error(`[${steps.indexOf(name) + 1}/${steps.length}] ${name}`),
    stop: () => undefined,
  };
}

export interface MemoryFlags {
  description?: string | undefined;
  force?: boolean | undefined;
}

/** The steps each subcommand reports, for the caller to build its view. */
export function memorySteps(args: readonly string[]): readonly string[] {
  const [sub, direction] = args;
  if (sub === 'restore') return RESTORE_PHASES;
  if (sub === 'sync') return direction === 'pull' ? PULL_PHASES : PUSH_PHASES;
  return ['snapshot'];
}

const USAGE =
  'Usage: meridian memory snapshot PROJECT_ID [--description D] | snapshots PROJECT_ID | ' +
  'restore PROJECT_ID SNAPSHOT_ID | sync push|pull PROJECT_ID [--force]';

/**
 * `meridian memory …`: snapshots, restore and cloud sync of a project's memory as the local
 * owner, steps on `view`, the outcome on stdout.
 */
export async function memoryCommand(
  deps: { snapshots: MemorySnapshots },
  args: readonly string[],
  flags: MemoryFlags,
  out: CliOutput,
  view: StepView,
): Promise<void> {
  const [sub, first, second] = args;
  const snapshots = deps.snapshots;
  try {
    switch (sub) {
      case 'snapshot': {
        const snap = await snapshots.create(LOCAL_OWNER, required(first, 'PROJECT_ID'), {
          description: flags.description,
        });
        view.step('snapshot');
        view.stop();
        out.line(
          `${snap.snapshot_id}  ${snap.item_count} records, ${snap.size_bytes} bytes, ${snap.verified ? 'verified' : 'NOT verified'}`,
        );
        return;
      }
      case 'snapshots': {
        const list = await snapshots.list(LOCAL_OWNER, required(first, 'PROJECT_ID'));
        view.stop();
        for (const s of list) {
          out.line(
            `${s.snapshot_id}  ${s.created_at}  ${s.size_bytes} bytes${s.automatic ? '  (automatic)' : ''}${s.description ? `  ${s.description}` : ''}`,
          );
        }
        out.line(`${list.length} snapshot${list.length === 1 ? '' : 's'}.`);
        return;
      }
      case 'restore': {
        const restored = await snapshots.restore(
          LOCAL_OWNER,
          required(first, 'PROJECT_ID'),
          required(second, 'SNAPSHOT_ID'),
          { onPhase: (phase) => view.step(phase) },
        );
        view.stop();
        out.line(
          `Restored ${restored.snapshot_id}: ${restored.restored_items} records (${restored.restored_branches} branches). ` +
            `The previous memory is snapshot ${restored.backup_snapshot_id}.`,
        );
        return;
      }
      case 'sync': {
        const projectId = required(second, 'PROJECT_ID');
        const options = { force: flags.force, onPhase: (phase: string) => view.step(phase) };
        if (first === 'push') {
          const pushed = await snapshots.syncToCloud(LOCAL_OWNER, projectId, options);
          view.stop();
          out.line(
            pushed.status === 'uploaded'
              ? `Uploaded ${pushed.uploaded_bytes} bytes to ${pushed.cloud_path}`
              : 'Up to date: nothing to upload.',
          );
          return;
        }
        if (first === 'pull') {
          const pulled = await snapshots.syncFromCloud(LOCAL_OWNER, projectId, options);
          view.stop();
          out.line(
            pulled.status === 'restored'
              ? `Restored ${pulled.snapshot_id} from the cloud: ${pulled.restored_items} records. The previous memory is snapshot ${pulled.backup_snapshot_id}.`
              : 'Up to date: nothing to download.',
          );
          return;
        }
        throw new UsageError(`meridian memory sync takes push or pull.\n${USAGE}`);
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    view.stop();
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`${name} is missing.\n${USAGE}`);
  return value;
}
