import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createAwsHttpDeps } from '../../lambdas/runtime/aws-http.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('createAwsHttpDeps (the MCP function’s composition root)', () => {
  let store: TestRuntime;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await startTestRuntime();
    env = {
      MERIDIAN_TABLE_NAME: store.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      MERIDIAN_BOOKING_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:booking',
      MERIDIAN_TIMEZONE: 'Europe/Paris',
    };
    Object.assign(process.env, {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
    });
  });

  afterAll(async () => {
    await store.close();
  });

  it.each(['MERIDIAN_TABLE_NAME', 'MERIDIAN_DATA_KEY_ARN', 'MERIDIAN_BOOKING_STATE_MACHINE_ARN'])(
    'fails at once, naming %s, when the stack did not set it',
    (name) => {
      expect(() => createAwsHttpDeps({ ...env, [name]: ' ' }, silent)).toThrow(`${name} is not set`);
    },
  );

  it('fails at once on a MERIDIAN_TIMEZONE that is no IANA zone', () => {
    expect(() => createAwsHttpDeps({ ...env, MERIDIAN_TIMEZONE: 'Europe/Pariss' }, silent)).toThrow(
      /MERIDIAN_TIMEZONE "Europe\/Pariss" is not an IANA time zone/,
    );
  });

  it('authenticates keys against the table, and refuses unknown ones', async () => {
    const deps = createAwsHttpDeps(env, silent);
    const { token, keyId } = await store.newKey('aws-http');

    expect(await deps.tokenVerifier.authenticate(token)).toMatchObject({ keyId });
    expect(await deps.tokenVerifier.authenticate(`${token.slice(0, -1)}x`)).toBeUndefined();
  });

  it('builds the tools’ object graph once, on demand, with the configured zone', async () => {
    const deps = createAwsHttpDeps(env, silent);

    const [first, second] = await Promise.all([deps.toolDeps('calendar'), deps.toolDeps('booking')]);

    expect(first).toBe(second);
    expect(first.defaultTimezone).toBe('Europe/Paris');
    // The graph works on the same table: a calendar created through it is listed by it.
    const created = await first.calendars.createCalendar(LOCAL_OWNER, { name: 'Team' });
    expect((await first.calendars.listCalendars(LOCAL_OWNER)).map((c) => c.id)).toContain(created.id);
  });

  it('gives the time tools a clock and the zone without building the table-backed graph', async () => {
    // A graph that cannot be built (LOCK_TTL_SECS out of range fails its composition) shows
    // whether a call builds it: the time slice answers, the calendar slice does not.
    const deps = createAwsHttpDeps({ ...env, LOCK_TTL_SECS: '1' }, silent);

    const time = await deps.toolDeps('time');

    expect(time.defaultTimezone).toBe('Europe/Paris');
    expect(Math.abs(time.clock.now().getTime() - Date.now())).toBeLessThan(5_000);
    expect(Object.keys(time).sort()).toEqual(['clock', 'defaultTimezone']);
    await expect(deps.toolDeps('calendar')).rejects.toThrow(/LOCK_TTL_SECS/);
  });
});
