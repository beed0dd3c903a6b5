import type { AuditArchive } from '../ports/index.js';
import type { AuditLog } from './audit-log.js';
import { sha256 } from './audit-record.js';
import { verifyChain } from './verify-chain.js';

/** Where a day's export goes: under the day, named by its content, so a changed chain is a new object. */
export const AUDIT_EXPORT_PREFIX = 'audit/';

/** One day's chain as exported. */
export interface DayExport {
  day: string;
  /** The object's key: `audit/<day>/<sha256 of the body>.jsonl`. */
  key: string;
  records: number;
  /** The chain's last hash: what an auditor compares with the table's chain. */
  head?: string;
  /** Records a crash left pending, and chain problems, as `audit verify` reports them. */
  pending: number;
  problems: number;
  /** False when an earlier run had kept the same export already. */
  written: boolean;
}

/** The UTC days an export run covers by default: yesterday's chain, now closed, and today's so far. */
export function daysToExport(now: Date): string[] {
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  return [yesterday, today];
}

/**
 * Exports each day's chain that has records to `archive`, one JSON record a line (as `meridian
 * audit export` prints it), checked with the chain verifier first: a broken chain is exported
 * too (it is evidence), and reported. A day without records writes nothing.
 *
 * @example
 * const exported = await exportAuditDays({ log, archive }, daysToExport(clock.now()));
 */
export async function exportAuditDays(
  deps: { log: AuditLog; archive: AuditArchive },
  days: readonly string[],
): Promise<DayExport[]> {
  const exported: DayExport[] = [];
  for (const day of days) {
    const records = await deps.log.records(day);
    if (records.length === 0) continue;
    const verdict = verifyChain(day, records);
    const body = records.map((record) => `${JSON.stringify(record)}\n`).join('');
    const key = `${AUDIT_EXPORT_PREFIX}${day}/${sha256(body)}.jsonl`;
    const outcome = await deps.archive.keep(key, new TextEncoder().encode(body));
    exported.push({
      day,
      key,
      records: records.length,
      ...(verdict.head ? { head: verdict.head } : {}),
      pending: verdict.pending.length,
      problems: verdict.problems.length,
      written: outcome === 'written',
    });
  }
  return exported;
}
