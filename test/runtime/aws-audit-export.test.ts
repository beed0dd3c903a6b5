/**
 * The audit export function's composition (runtime/aws-audit-export.ts) on dynalite and s3rver:
 * the table's chains go to the bucket as `audit export` prints them, once per content, and a
 * chain changed in the table afterwards no longer matches the copy taken before.
 */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../lambdas/core/audit/audit-log.js';
import type { AuditRecord } from '../../lambdas/core/audit/audit-record.js';
import { verifyChain } from '../../lambdas/core/audit/verify-chain.js';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { PK_PREFIX, SK } from '../../lambdas/core/storage/key-prefixes.js';
import { createAwsAuditExport } from '../../lambdas/runtime/aws-audit-export.js';
import { parseEnvironment } from '../../lambdas/runtime/environment.js';
import { type RunningS3rver, s3rverClient, startS3rver } from '../support/s3rver.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const BUCKET = 'meridian-audit-exports';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the audit export to the Object Lock bucket', { timeout: 60_000 }, () => {
  let runtime: TestRuntime;
  let s3: RunningS3rver;
  let exportAudit: ReturnType<typeof createAwsAuditExport>;
  const client = () => s3rverClient(s3.endpoint);

  /** Appends one completed record on `day`, as a CLI command does. */
  async function append(day: string, action: string): Promise<void> {
    const log = new AuditLog({ store: runtime.store, clock: fixedClock(`${day}T12:00:00Z`) });
    const pending = await log.begin({
      at: `${day}T12:00:00.000Z`,
      principal: 'local-owner',
      client: 'cli',
      source: 'cli',
      action,
      request_id: crypto.randomUUID(),
      input_digest: 'd'.repeat(64),
      input_values: {},
      resource_ids: [],
    });
    await log.complete(pending, { completed_at: `${day}T12:00:01.000Z`, outcome: 'ok' });
  }

  async function objects(prefix = 'audit/'): Promise<string[]> {
    const s3Client = client();
    const { Contents = [] } = await s3Client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }),
    );
    s3Client.destroy();
    return Contents.map((object) => object.Key!).sort();
  }

  async function recordsIn(key: string): Promise<AuditRecord[]> {
    const s3Client = client();
    const { Body } = await s3Client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    const text = await Body!.transformToString();
    s3Client.destroy();
    return text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditRecord);
  }

  beforeAll(async () => {
    runtime = await startTestRuntime();
    s3 = await startS3rver([BUCKET]);
    const environment = parseEnvironment({
      MERIDIAN_TABLE_NAME: runtime.tableName,
      MERIDIAN_AUDIT_EXPORT_BUCKET: BUCKET,
      // What Lambda sets on the function, which the table's client reads from the parsed environment.
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: runtime.endpoint,
    });
    exportAudit = createAwsAuditExport(environment, silent, client());
    await append('2026-11-26', 'keys create');
    await append('2026-11-26', 'grants set');
    await append('2026-11-27', 'keys revoke');
  });

  afterAll(async () => {
    await s3?.close();
    await runtime?.close();
  });

  it('exports each day’s chain, one JSON record a line, that verifies and is the table’s chain', async () => {
    const exported = await exportAudit(['2026-11-26', '2026-11-27', '2026-11-28']);

    expect(
      exported.map(({ day, records, written, problems }) => ({ day, records, written, problems })),
    ).toEqual([
      { day: '2026-11-26', records: 2, written: true, problems: 0 },
      { day: '2026-11-27', records: 1, written: true, problems: 0 },
    ]);
    expect(await objects()).toEqual(exported.map((day) => day.key).sort());
    const copy = await recordsIn(exported[0]!.key);
    const table = await new AuditLog({
      store: runtime.store,
      clock: fixedClock('2026-11-27T00:00:00Z'),
    }).records('2026-11-26');
    expect(copy).toEqual(table);
    expect(verifyChain('2026-11-26', copy)).toMatchObject({ problems: [], head: exported[0]!.head });
  });

  it('writes nothing again for a chain it exported already', async () => {
    const before = await objects();

    const again = await exportAudit(['2026-11-26']);

    expect(again[0]).toMatchObject({ written: false });
    expect(await objects()).toEqual(before);
  });

  it('exports a chain that grew as a new object, keeping the earlier one', async () => {
    await append('2026-11-27', 'keys toolsets');

    const [grown] = await exportAudit(['2026-11-27']);

    expect(grown).toMatchObject({ records: 2, written: true });
    expect(await objects('audit/2026-11-27/')).toHaveLength(2);
  });

  it('exports a chain rewritten in the table as found, reporting it; the earlier copy shows what changed', async () => {
    const [earlier] = await objects('audit/2026-11-26/');
    const [first] = await runtime.store
      .query({
        partition: `${PK_PREFIX.audit}2026-11-26`,
        beginsWith: SK.audit.recordPrefix,
        limit: 1,
      })
      .then((page) => page.items);
    await runtime.store.put({ ...first!, action: 'grants set' });

    const [rewritten] = await exportAudit(['2026-11-26']);

    expect(rewritten).toMatchObject({ written: true, problems: 1 });
    expect((await recordsIn(earlier!))[0]!.action).toBe('keys create');
    expect(verifyChain('2026-11-26', await recordsIn(earlier!)).problems).toEqual([]);
  });
});
