import { describe, expect, it } from 'vitest';
import { sentences } from '../../../../lambdas/core/memory/grounding/claims.js';
import { verifyAgainstMemory } from '../../../../lambdas/core/memory/grounding/verify-response.js';
import type { MemoryItem } from '../../../../lambdas/core/memory/store/memory-records.js';

const item = (item_id: string, text: string, path?: string): MemoryItem => ({
  item_id,
  project_id: 'prj_1',
  branch_id: 'main',
  kind: path ? 'file' : 'entry',
  text,
  ...(path ? { path } : {}),
  created_at: '2026-03-01T00:00:00.000Z',
});

/** What verify_response answers for each of `texts` against `facts`, and a check that these are accepted. */
function against(facts: MemoryItem[]) {
  const said = (text: string) => verifyAgainstMemory(facts, text);
  const accepts = (texts: string[]) => {
    for (const text of texts)
      expect(said(text), text).toMatchObject({ status: 'ACCEPT', contradictions: [] });
  };
  return { said, accepts };
}

const memory = [
  item('ent_1', 'The cache TTL is 300 seconds. Cache keys start with status.'),
  item('file:src/retry.ts', 'retryWithBackoff() in src/retry.ts retries 3 times.', 'src/retry.ts'),
];

describe('verifyAgainstMemory', () => {
  it('answers NO_CLAIMS with a null score when nothing can be checked, never 1.0', () => {
    const report = verifyAgainstMemory(memory, 'Sure, happy to help! Anything else?');
    expect(report).toMatchObject({ status: 'NO_CLAIMS', grounding_score: null, claims_extracted: 0 });
  });

  it('accepts a response whose claims memory states', () => {
    const report = verifyAgainstMemory(
      memory,
      'The cache TTL is 300 seconds. retryWithBackoff() retries 3 times.',
    );
    expect(report.status).toBe('ACCEPT');
    expect(report.grounding_score).toBeGreaterThanOrEqual(0.7);
    expect(report.evidence_items.map((e) => e.source)).toEqual(['ent_1', 'src/retry.ts']);
  });

  it('finds a changed number and caps the status at WARN even when the rest is grounded', () => {
    const report = verifyAgainstMemory(
      memory,
      'Cache keys start with status. The cache TTL is 600 seconds. retryWithBackoff() retries 3 times.',
    );
    expect(report.contradictions).toEqual([
      expect.objectContaining({ kind: 'number', claimed: '600', found: '300', source: 'ent_1' }),
    ]);
    expect(report.status).toBe('WARN');
  });

  it('finds a changed path', () => {
    const report = verifyAgainstMemory(memory, 'retryWithBackoff() in lib/retry.ts retries 3 times.');
    expect(report.contradictions[0]).toMatchObject({
      kind: 'path',
      claimed: 'lib/retry.ts',
      found: 'src/retry.ts',
    });
  });

  it('compares durations and sizes whatever their unit is called, and names the value of the same clause', () => {
    const { said, accepts } = against([
      item('ent_2', 'The API gateway timeout is 29 seconds and the Lambda timeout is 15 min.'),
      item('ent_3', 'Uploads larger than 5 MB go to S3; sessions expire after 24 hours.'),
    ]);

    accepts([
      'The Lambda timeout is 15 minutes.',
      'The API gateway timeout is 29 s.',
      'Uploads larger than 5 megabytes go to S3.',
      'Sessions expire after one day.',
    ]);
    expect(said('The Lambda timeout is 10 minutes.').contradictions).toEqual([
      expect.objectContaining({ kind: 'number', claimed: '10', found: '15' }),
    ]);
    expect(said('Uploads larger than 10 MB go to S3.').contradictions[0]).toMatchObject({
      claimed: '10',
      found: '5',
    });
  });

  it('reads times of day, percentages and prices as such', () => {
    const { said, accepts } = against([
      item('ent_4', 'The nightly backup runs at 02:30 UTC and keeps 14 snapshots.'),
      item('ent_5', 'The service targets 99.9% availability; the Pro plan costs $20 per month.'),
    ]);

    accepts([
      'The nightly backup runs at 2:30 UTC.',
      'The service targets 99.9 percent availability.',
      'The Pro plan costs 20 dollars per month.',
    ]);
    expect(said('The nightly backup runs at 12:30 UTC.').contradictions[0]).toMatchObject({
      kind: 'time',
      claimed: '12:30',
      found: '2:30',
    });
    expect(said('The nightly backup runs at 2:30 pm UTC.').contradictions[0]).toMatchObject({
      claimed: '14:30',
      found: '2:30',
    });
    expect(said('The service targets 99.95% availability.').contradictions[0]).toMatchObject({
      kind: 'number',
      claimed: '99.95',
      found: '99.9',
    });
  });

  it('splits sentences before a lower-case command, not after an abbreviation or an initial', () => {
    expect(
      sentences(
        'Snapshots go to S3. npm test runs vitest. Use e.g. the cache at 5 p.m. today. It is approx. ten.',
      ),
    ).toEqual([
      'Snapshots go to S3.',
      'npm test runs vitest.',
      'Use e.g. the cache at 5 p.m. today.',
      'It is approx. ten.',
    ]);
  });

  it('flips on negation', () => {
    const report = verifyAgainstMemory(memory, 'The cache TTL is not 300 seconds.');
    expect(report.contradictions[0]?.kind).toBe('negation');
  });

  it('lowers fuzzy_confidence for hedged claims', () => {
    const report = verifyAgainstMemory(
      memory,
      'The cache TTL is probably 300 seconds. retryWithBackoff() retries 3 times.',
    );
    expect(report.fuzzy_confidence).toBe(0.5);
  });

  it('rejects claims memory says nothing about', () => {
    const report = verifyAgainstMemory(
      memory,
      'The billing service charges customers monthly through Stripe.',
    );
    expect(report).toMatchObject({ status: 'REJECT', claims_verified: 0 });
  });

  it('draws evidence only from the named sources when one matches', () => {
    const report = verifyAgainstMemory(memory, 'The cache TTL is 300 seconds.', {
      evidenceSources: ['src/retry.ts'],
    });
    expect(report.evidence_pool).toBe(1);
    expect(report.status).not.toBe('ACCEPT');
  });
});
