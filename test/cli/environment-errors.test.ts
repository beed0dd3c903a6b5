import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian } from '../support/cli.js';

/**
 * `meridian` parses the environment once, before it opens anything: a bad variable stops the
 * command with exit code 2 and a message naming the variable and what it accepts.
 */
describe('meridian with a bad environment', { timeout: 60_000 }, () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-env-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each([
    [
      'MERIDIAN_CALL_WORK_ITEMS',
      'lots',
      'MERIDIAN_CALL_WORK_ITEMS must be a whole number from 1000 to 10000000; got "lots".',
    ],
    [
      'MERIDIAN_SYNC_INTERVAL_MINUTES',
      '1441',
      'MERIDIAN_SYNC_INTERVAL_MINUTES must be a whole number of minutes from 0 (off) to 1440',
    ],
    ['MERIDIAN_EMBEDDINGS', 'titan', 'MERIDIAN_EMBEDDINGS must be one of local, bedrock (got "titan").'],
  ])('stops serve on %s=%s, naming it', async (name, value, message) => {
    await expect(
      meridian(['serve', '--port', '0', '--data-dir', dataDir], { [name]: value }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`meridian: Invalid environment: ${message}`),
    });
  });

  it('stops a one-shot command the same way, before it opens the data dir', async () => {
    const fresh = join(dataDir, 'never-created');

    await expect(
      meridian(['keys', 'list', '--data-dir', fresh], { LOCK_TTL_SECS: '1' }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('LOCK_TTL_SECS must be a whole number'),
    });
    await expect(rm(fresh)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
