import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { createAwsHttpDeps } from '../../lambdas/runtime/aws-http.js';
import { parseEnvironment } from '../../lambdas/runtime/environment.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('createAwsHttpDeps (the MCP function’s composition root)', () => {
  let store: TestRuntime;
  let env: Record<string, string>;
  const depsOf = (vars: Record<string, string>) => createAwsHttpDeps(parseEnvironment(vars), silent);

  beforeAll(async () => {
    store = await startTestRuntime();
    // What Lambda sets on the function: the table's client reads them from the parsed environment.
    const lambda = {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: store.endpoint,
    };
    env = {
      ...lambda,
      MERIDIAN_TABLE_NAME: store.tableName,
      MERIDIAN_DATA_KEY_ARN: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
      MERIDIAN_BOOKING_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:booking',
      MERIDIAN_TIMEZONE: 'Europe/Paris',
    };
    // The SDK's clients (KMS, Step Functions) read them from the process, as they do on Lambda.
    Object.assign(process.env, lambda);
  });

  afterAll(async () => {
    await store.close();
  });

  it.each(['MERIDIAN_TABLE_NAME', 'MERIDIAN_DATA_KEY_ARN', 'MERIDIAN_BOOKING_STATE_MACHINE_ARN'])(
    'fails at once, naming %s, when the stack did not set it',
    (name) => {
      expect(() => depsOf({ ...env, [name]: ' ' })).toThrow(`${name} is not set`);
    },
  );

  it('fails at once on a MERIDIAN_TIMEZONE that is no IANA zone', () => {
    expect(() => depsOf({ ...env, MERIDIAN_TIMEZONE: 'Europe/Pariss' })).toThrow(
      /MERIDIAN_TIMEZONE "Europe\/Pariss" is not an IANA time zone/,
    );
  });

  it('authenticates keys against the table, and refuses unknown ones', async () => {
    const deps = depsOf(env);
    const { token, keyId } = await store.newKey('aws-http');

    expect(await deps.tokenVerifier.authenticate(token)).toMatchObject({ keyId });
    expect(await deps.tokenVerifier.authenticate(`${token.slice(0, -1)}x`)).toBeUndefined();
  });

  it('builds each slice once, on demand, with the configured zone, on the same table', async () => {
    const deps = depsOf(env);

    const [first, again] = await Promise.all([deps.toolDeps('calendar'), deps.toolDeps('calendar')]);

    expect(first).toBe(again);
    expect(first.defaultTimezone).toBe('Europe/Paris');
    // The slice works on the same table: a calendar created through it is listed by it.
    const created = await first.calendars.createCalendar(LOCAL_OWNER, { name: 'Team' });
    expect((await first.calendars.listCalendars(LOCAL_OWNER)).map((c) => c.id)).toContain(created.id);
  });

  it('gives each toolset only its slice, the parts under it built once and shared', async () => {
    const deps = depsOf(env);

    const [time, calendar, booking, memory, memoryWrites, memorySearch] = await Promise.all([
      deps.toolDeps('time'),
      deps.toolDeps('calendar'),
      deps.toolDeps('booking'),
      deps.toolDeps('memory'),
      deps.toolDeps('memoryWrites'),
      deps.toolDeps('memorySearch'),
    ]);

    expect(Object.keys(time).sort()).toEqual(['clock', 'defaultTimezone']);
    expect(Math.abs(time.clock.now().getTime() - Date.now())).toBeLessThan(5_000);
    expect(Object.keys(calendar).sort()).toEqual(['calendars', 'clock', 'defaultTimezone', 'idempotency']);
    // A memory read gets the memory service alone: no records, search, snapshots or insights.
    expect(Object.keys(memory).sort()).toEqual(['clock', 'defaultTimezone', 'memory']);
    expect(Object.keys(memorySearch).sort()).toEqual(['clock', 'defaultTimezone', 'memory', 'search']);
    // One CalendarService and one set of idempotency records, whichever slice asked first.
    expect(booking.calendars).toBe(calendar.calendars);
    expect(await memoryWrites.idempotency()).toBe(await calendar.idempotency());
    expect(memorySearch.memory).toBe(memory.memory);
  });
});
