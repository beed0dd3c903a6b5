import { DomainError } from '../errors.js';
import { type Clock, ConditionFailedError, type DocumentStore, type StoredItem } from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import {
  type AuditCompletion,
  type AuditEntry,
  type AuditRecord,
  chainHash,
  completionHash,
  genesisHash,
} from './audit-record.js';

/** A record appended as pending: what completing it needs. */
export interface PendingAudit {
  record: AuditRecord;
}

interface Tail {
  seq: number;
  hash: string;
}

type RecordItem = StoredItem & AuditRecord;

/** Appends lost to other writers before one gives up; 20 writers at once need at most 20. */
const MAX_ATTEMPTS = 200;

const partitionOf = (day: string) => `${PK_PREFIX.audit}${day}`;
const recordKey = (day: string, seq: number) => ({
  pk: partitionOf(day),
  sk: `${SK.audit.recordPrefix}${String(seq).padStart(12, '0')}`,
});

function recordOf(item: RecordItem): AuditRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ttl: _t, ...record } = item;
  return record as AuditRecord;
}

/**
 * The audit log: one hash chain per UTC day (partition `AUDIT#<day>`), records at sequence
 * numbers 1, 2, 3 … A record is appended *pending* before its change is made and *completed*
 * after, so an acknowledged change always has its record and a crash can only leave one pending.
 * Many writers (Lambda instances) append at once without a lock: a record claims its sequence
 * number with a conditional put (`not_exists`), and the loser reads the newest record and
 * chains after it (docs/adr/0014-rate-limits-and-audit-log.md). Each instance remembers the tail it last
 * saw, so an uncontended append is one write.
 *
 * @example
 * const pending = await log.begin(entry);
 * const result = await change();
 * await log.complete(pending, { completed_at, outcome: 'ok' });
 */
export class AuditLog {
  private readonly tails = new Map<string, Tail>();

  constructor(private readonly deps: { store: DocumentStore; clock: Clock }) {}

  /** Appends `entry` as pending at the end of its day's chain. */
  async begin(entry: AuditEntry): Promise<PendingAudit> {
    const day = entry.at.slice(0, 10);
    let tail = this.tails.get(day) ?? (await this.readTail(day));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const seq = tail.seq + 1;
      const record: AuditRecord = {
        ...entry,
        day,
        seq,
        prev: tail.hash,
        hash: chainHash(tail.hash, seq, entry),
        status: 'pending',
      };
      try {
        await this.deps.store.put(
          {
            ...recordKey(day, seq),
            ...record,
            // The first record of a day lists the day, so `audit verify` finds every chain.
            ...(seq === 1 ? { gsi1pk: GSI1PK.auditDays, gsi1sk: day } : {}),
          },
          { condition: { op: 'not_exists' } },
        );
        this.tails.set(day, { seq, hash: record.hash });
        return { record };
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // Another writer holds `seq`: chain after the newest record, which may be further on
        // still (with many writers, jumping to the tail beats stepping one record at a time).
        tail = await this.readTail(day);
      }
    }
    throw new DomainError(
      'CONFLICT',
      'The audit log is too busy to record this change right now; nothing was changed. Retry in a few seconds.',
    );
  }

  /** Marks a pending record completed; a record already completed is left as it is. */
  async complete(pending: PendingAudit, completion: AuditCompletion): Promise<AuditRecord> {
    const { record } = pending;
    const completed: AuditRecord = {
      ...record,
      status: 'completed',
      completion,
      completion_hash: completionHash(record.hash, completion),
    };
    await this.deps.store.put(
      {
        ...recordKey(record.day, record.seq),
        ...completed,
        ...(record.seq === 1 ? { gsi1pk: GSI1PK.auditDays, gsi1sk: record.day } : {}),
      },
      { condition: { op: 'eq', attribute: 'status', value: 'pending' } },
    );
    return completed;
  }

  /** The days that have a chain, oldest first. */
  async days(): Promise<string[]> {
    const firsts = await queryAll(this.deps.store, { index: 'gsi1', partition: GSI1PK.auditDays });
    return firsts.map((item) => String(item.gsi1sk)).sort();
  }

  /** One day's records in chain order, as stored. */
  async records(day: string): Promise<AuditRecord[]> {
    const items = await queryAll<RecordItem>(this.deps.store, {
      partition: partitionOf(day),
      beginsWith: SK.audit.recordPrefix,
      consistent: true,
    });
    return items.map(recordOf);
  }

  private async readTail(day: string): Promise<Tail> {
    const page = await this.deps.store.query<RecordItem>({
      partition: partitionOf(day),
      beginsWith: SK.audit.recordPrefix,
      descending: true,
      limit: 1,
      consistent: true,
    });
    const last = page.items[0];
    return last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: genesisHash(day) };
  }
}
