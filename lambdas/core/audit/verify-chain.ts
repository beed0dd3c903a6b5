import { type AuditRecord, chainHash, completionHash, genesisHash } from './audit-record.js';

/** One thing wrong with a day's chain, at the sequence number where it shows. */
export interface ChainProblem {
  seq: number;
  problem: string;
}

export interface ChainVerdict {
  day: string;
  records: number;
  /** Records whose change never reported back (a crash between the two writes): allowed, listed. */
  pending: number[];
  problems: ChainProblem[];
  /** The last record's hash: compare it with an exported copy to detect a cut-off tail. */
  head?: string;
}

/**
 * Checks one day's records, as stored in order: numbered 1, 2, 3 … without gaps (a removed
 * record), each following the hash of the one before (an inserted or reordered one), each hash
 * recomputing from its fields (a changed one), and each completion matching its hash. Pure: the
 * records may come from the table or from an export.
 *
 * @example
 * verifyChain('2026-11-27', await log.records('2026-11-27')).problems; // []
 */
export function verifyChain(day: string, records: readonly AuditRecord[]): ChainVerdict {
  const problems: ChainProblem[] = [];
  const pending: number[] = [];
  let prev = genesisHash(day);
  records.forEach((record, index) => {
    const expectedSeq = index + 1;
    if (record.seq !== expectedSeq)
      problems.push({
        seq: expectedSeq,
        problem: `record ${expectedSeq} is missing or out of place (found seq ${record.seq})`,
      });
    if (record.day !== day)
      problems.push({ seq: record.seq, problem: `belongs to ${record.day}, not ${day}` });
    if (record.prev !== prev)
      problems.push({
        seq: record.seq,
        problem: 'does not follow the record before it (removed, inserted or reordered)',
      });
    if (chainHash(record.prev, record.seq, record) !== record.hash)
      problems.push({ seq: record.seq, problem: 'its fields do not match its hash (changed)' });
    if (record.status === 'completed') {
      if (!record.completion || completionHash(record.hash, record.completion) !== record.completion_hash)
        problems.push({ seq: record.seq, problem: 'its completion does not match its hash (changed)' });
    } else pending.push(record.seq);
    prev = record.hash;
  });
  return { day, records: records.length, pending, problems, ...(records.length ? { head: prev } : {}) };
}
