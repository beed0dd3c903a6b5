import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridianExit } from '../support/cli.js';
import { authorizeOverHttp, listToolsWithBearer, redeemCode } from '../support/oauth-http-flow.js';
import { type ServedSignIn, serveWithSignIn } from '../support/served-sign-in.js';

/**
 * `meridian --aws sessions …` on a deployment's table: the sign-in runs over a table reached the
 * way a deployment's is (AWS_ENDPOINT_URL_DYNAMODB, as in aws-admin.test.ts), and the CLI, with
 * no provider of its own, lists and ends the session it made.
 */
describe('meridian --aws sessions', { timeout: 90_000 }, () => {
  let served: ServedSignIn;
  let env: Record<string, string>;

  beforeAll(async () => {
    served = await serveWithSignIn();
    env = {
      MERIDIAN_TABLE_NAME: served.runtime.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      AWS_ENDPOINT_URL_DYNAMODB: served.runtime.endpoint,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    await served.users.add('carol', 'a long enough secret');
  });

  afterAll(async () => {
    await served?.close();
  });

  /** Carol signs in through a new client and redeems the code. */
  async function carolSignsIn() {
    const flow = await authorizeOverHttp(served.url, {
      person: { name: 'carol', password: 'a long enough secret' },
      scope: 'toolset:time',
      resource: served.mcpUrl,
    });
    const { access_token } = await redeemCode(served.url, flow);
    return { clientId: flow.clientId, token: access_token };
  }

  it("lists a person's session in the deployed table and revokes it: the token stops at the next request", async () => {
    const { clientId, token: access_token } = await carolSignsIn();
    const listTools = () => listToolsWithBearer(served.mcpUrl, access_token);
    expect((await listTools()).status).toBe(200);

    const listed = await meridianExit(['--aws', 'sessions', 'list', '--user', 'carol'], env);
    const sessionId = listed.stdout.split('  ')[0]!;
    const revoked = await meridianExit(['--aws', 'sessions', 'revoke', sessionId], env);

    expect(listed.stdout).toContain(`  carol  ${clientId}  toolsets time`);
    expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: '' });
    expect((await listTools()).status).toBe(401);
  });

  it('shows a session whose consent key was revoked apart (keys revoke) as such', async () => {
    const { clientId } = await carolSignsIn();
    const line = async () =>
      (await meridianExit(['--aws', 'sessions', 'list', '--user', 'carol'], env)).stdout
        .split('\n')
        .find((l) => l.includes(clientId))!;
    const consentId = / consent (\S+)/.exec(await line())![1]!;

    await meridianExit(['--aws', 'keys', 'revoke', consentId], env);

    expect(await line()).toMatch(new RegExp(`consent ${consentId}  CONSENT REVOKED \\d{4}-`));
  });
});
