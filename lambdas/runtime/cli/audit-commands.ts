import { AuditLog } from '../../core/audit/audit-log.js';
import type { AuditRecord } from '../../core/audit/audit-record.js';
import { verifyChain } from '../../core/audit/verify-chain.js';
import type { Clock, DocumentStore } from '../../core/ports/index.js';
import { type CliOutput, UsageError } from './access-commands.js';

const USAGE =
  'Usage: meridian audit list [--day YYYY-MM-DD] [--limit N] | audit verify [--day YYYY-MM-DD] | audit export [--day YYYY-MM-DD]';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function line(record: AuditRecord): string {
  const ended = record.completion
    ? `${record.completion.outcome}${record.completion.code ? ` ${record.completion.code}` : ''}`
    : 'NOT COMPLETED';
  const ids = [...record.resource_ids, ...(record.completion?.output_resource_ids ?? [])];
  return `${record.day} #${record.seq}  ${record.at}  ${record.principal.padEnd(22)}  ${record.action.padEnd(22)}  ${ended}  ${[...new Set(ids)].join(' ')}`;
}

/**
 * `meridian audit list|verify|export`: the audit log read back. `verify` checks every day's chain
 * (or `--day`'s) and exits non-zero on any problem, naming the record; records a crash left
 * pending are listed but are no problem. `export` writes one JSON record a line, for keeping
 * elsewhere (and `verify` of an export: core/audit/verify-chain.ts).
 */
export async function auditCommand(
  runtime: { store: DocumentStore; clock: Clock },
  args: string[],
  flags: { day?: string; limit?: string },
  out: CliOutput,
): Promise<void> {
  const [action] = args;
  if (flags.day !== undefined && !DAY.test(flags.day))
    throw new UsageError(`--day needs a UTC date, YYYY-MM-DD (e.g. --day 2026-11-27).\n${USAGE}`);
  const log = new AuditLog(runtime);
  const days = flags.day ? [flags.day] : await log.days();
  if (action === 'list' || action === 'export') {
    const limit = flags.limit === undefined ? Number.POSITIVE_INFINITY : Number(flags.limit);
    if (!(limit > 0)) throw new UsageError(`--limit needs a positive whole number.\n${USAGE}`);
    let shown = 0;
    for (const day of days) {
      for (const record of await log.records(day)) {
        if (shown++ >= limit) return;
        out.line(action === 'list' ? line(record) : JSON.stringify(record));
      }
    }
    if (action === 'list' && shown === 0) out.line('The audit log is empty.');
    return;
  }
  if (action === 'verify') {
    let failed = false;
    for (const day of days) {
      const verdict = verifyChain(day, await log.records(day));
      failed ||= verdict.problems.length > 0;
      const pending = verdict.pending.length
        ? `, ${verdict.pending.length} not completed (${verdict.pending.join(', ')})`
        : '';
      out.line(
        `${day}: ${verdict.records} records, ${verdict.problems.length ? `${verdict.problems.length} PROBLEMS` : 'chain intact'}${pending}${verdict.head ? `, head ${verdict.head}` : ''}`,
      );
      for (const { seq, problem } of verdict.problems) out.error(`  #${seq}: ${problem}`);
    }
    if (days.length === 0) out.line('The audit log is empty: nothing to verify.');
    if (failed) throw new AuditChainBrokenError();
    return;
  }
  throw new UsageError(USAGE);
}

/** `audit verify` found a problem: the command exits non-zero (the problems are already printed). */
export class AuditChainBrokenError extends Error {
  override readonly name = 'AuditChainBrokenError';

  constructor() {
    super('The audit log failed verification: see the records named above.');
  }
}
