import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../lambdas/core/audit/audit-log.js';
import type { AuditEntry } from '../../../lambdas/core/audit/audit-record.js';
import { verifyChain } from '../../../lambdas/core/audit/verify-chain.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import type { StoreUnderTest } from '../../adapters/dynamodb/document-store-contract.js';

const entry = (at: string, action: string): AuditEntry => ({
  at,
  principal: 'key:test',
  client: 'contract',
  source: 'tool',
  action,
  request_id: action,
  input_digest: 'digest',
  input_values: {},
  resource_ids: [],
});

/**
 * The audit log against one engine behind the DocumentStore port (dynalite, DynamoDB Local):
 * each test writes to a day of its own, so they share one table without seeing each other.
 */
export function describeAuditLogOn(
  label: string,
  makeStore: () => Promise<StoreUnderTest>,
  /** Vitest's describe options: `needs(…)` for a store on a program npm does not install. */
  options: { skip?: boolean } = {},
): void {
  describe(`AuditLog on ${label}`, { timeout: 120_000, ...options }, () => {
    let under: StoreUnderTest;

    beforeAll(async () => {
      under = await makeStore();
    });
    afterAll(async () => under.close());

    it('keeps one chain that verifies when 20 writers (instances) append at once', async () => {
      const day = '2031-01-01';
      const clock = fixedClock(`${day}T10:00:00Z`);
      // Twenty logs stand for twenty Lambda instances: each knows only the tail it saw itself.
      const writers = Array.from({ length: 20 }, () => new AuditLog({ store: under.store, clock }));
      await Promise.all(
        writers.map(async (log, writer) => {
          for (let n = 0; n < 3; n++) {
            const pending = await log.begin(entry(`${day}T10:00:00.000Z`, `w${writer}-${n}`));
            await log.complete(pending, { completed_at: `${day}T10:00:01.000Z`, outcome: 'ok' });
          }
        }),
      );

      const reader = new AuditLog({ store: under.store, clock });
      const records = await reader.records(day);
      expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect(new Set(records.map((r) => r.action)).size).toBe(60);
      expect(verifyChain(day, records)).toMatchObject({ records: 60, pending: [], problems: [] });
      expect(await reader.days()).toContain(day);
    });

    it('leaves a record whose change never reported back pending, which verify lists and accepts', async () => {
      const day = '2031-01-02';
      const log = new AuditLog({ store: under.store, clock: fixedClock(`${day}T10:00:00Z`) });
      const first = await log.begin(entry(`${day}T10:00:00.000Z`, 'first'));
      await log.complete(first, { completed_at: `${day}T10:00:01.000Z`, outcome: 'ok' });
      await log.begin(entry(`${day}T10:00:02.000Z`, 'cut-off'));
      // A fresh instance (the restarted process) chains after the pending record.
      const restarted = new AuditLog({ store: under.store, clock: fixedClock(`${day}T10:01:00Z`) });
      await restarted.begin(entry(`${day}T10:01:00.000Z`, 'after'));

      const verdict = verifyChain(day, await log.records(day));
      expect(verdict).toMatchObject({ records: 3, pending: [2, 3], problems: [] });
    });
  });
}
