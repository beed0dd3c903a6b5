import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalUsers } from '../../lambdas/core/auth/local-users.js';
import { meridian } from '../support/cli.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/**
 * `meridian --aws …` administers a deployment's table with the caller's AWS credentials. Here the
 * "deployment" is a local DynamoDB reached through AWS_ENDPOINT_URL_DYNAMODB, as the SDK allows.
 */
describe('meridian --aws', { timeout: 90_000 }, () => {
  let deployed: TestRuntime;
  let env: Record<string, string>;

  beforeAll(async () => {
    deployed = await startTestRuntime();
    env = {
      MERIDIAN_TABLE_NAME: deployed.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      AWS_ENDPOINT_URL_DYNAMODB: deployed.endpoint,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
  });

  afterAll(async () => {
    await deployed?.close();
  });

  it('creates a key in the deployed table that the deployment then accepts', async () => {
    const created = await meridian(['--aws', 'keys', 'create', '--label', 'ops'], env);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];

    expect(token).toBeDefined();
    expect(await deployed.access.authenticate(token!)).toMatchObject({ kind: 'api-key', label: 'ops' });
    expect((await meridian(['--aws', 'keys', 'list'], env)).stdout).toContain('ops');
  });

  it("adds a person who signs in at the organization's issuer to the deployed table", async () => {
    const added = await meridian(['--aws', 'users', 'add', 'carol@example.com', '--external'], env);
    const users = new LocalUsers({ store: deployed.store, clock: deployed.clock });

    expect(added.stdout).toContain('Added carol@example.com');
    expect(await users.list()).toContainEqual(
      expect.objectContaining({ user_name: 'carol@example.com', external: true }),
    );
    expect(await users.verify('carol@example.com', '')).toBeUndefined();
  });

  it('says which setting is missing', async () => {
    const { MERIDIAN_TABLE_NAME: _, ...withoutTable } = env;

    await expect(
      meridian(['--aws', 'keys', 'list'], { ...withoutTable, MERIDIAN_TABLE_NAME: '' }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('MERIDIAN_TABLE_NAME is not set'),
    });
  });
});
