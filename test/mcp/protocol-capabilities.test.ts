import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarResource, LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/** The MCP utilities beside tools, through the SDK's real Client over `meridian serve`'s HTTP path. */
describe('MCP capabilities beside tools', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let client: Client;
  let readable: string;
  let hidden: string;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    served = await serveRuntime(runtime);
    readable = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Team' })).id;
    hidden = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Board' })).id;
    const key = await served.connect('reader');
    await runtime.access.setGrant(key.keyId, calendarResource(readable), 'read');
    client = key.client;
  });

  afterAll(() => served?.close());

  const complete = (name: string, value: string) =>
    client.complete({ ref: { type: 'ref/prompt', name: 'any_prompt' }, argument: { name, value } });

  it('declares logging, completions, resources and prompts', () => {
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      logging: {},
      completions: {},
      resources: {},
      prompts: {},
    });
  });

  it('answers resources/list, resources/templates/list and prompts/list with what a key without projects may use', async () => {
    // The rules and memory toolsets' own; their contents are tested in timesheet-resources-and-prompts.test.ts
    // and memory-resources-and-prompts.test.ts.
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      'timesheet://docs/rules-syntax',
      'timesheet://projects',
      'timesheet://rules',
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'timesheet://projects/{project_id}',
      'memory://projects/{project_id}/branches/{branch_id}/summary',
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'write-rule',
      'weekly-timesheet',
      'resume-work',
    ]);
  });

  it('refuses an unknown resource or prompt and says which list to call', async () => {
    await expect(client.readResource({ uri: 'meridian://nothing' })).rejects.toThrow(/resources\/list/);
    await expect(client.getPrompt({ name: 'nothing' })).rejects.toThrow(/prompts\/list/);
  });

  it('accepts logging/setLevel with an empty result', async () => {
    expect(await client.setLoggingLevel('warning')).toEqual({});
  });

  it.each([
    ['timezone', 'kath', 'Asia/Kathmandu'],
    ['time_zone', 'europe/lon', 'Europe/London'],
    ['target_timezone', 'york', 'America/New_York'],
  ])('completes %s "%s" with %s first', async (name, value, expected) => {
    const { completion } = await complete(name, value);

    expect(completion.values[0]).toBe(expected);
  });

  it('caps zone completions at 100 and says there are more', async () => {
    const { completion } = await complete('timezone', 'a');

    expect(completion.values).toHaveLength(100);
    expect(completion.hasMore).toBe(true);
    expect(completion.total).toBeGreaterThan(100);
  });

  it('completes calendar_id with the calendars this key may read, and no other', async () => {
    const { completion } = await complete('calendar_id', 'native/');

    expect(completion.values).toContain(readable);
    expect(completion.values).not.toContain(hidden);
  });

  it('answers an argument it knows nothing about with an empty list', async () => {
    const { completion } = await complete('arg1', 'test');

    expect(completion).toMatchObject({ values: [], hasMore: false });
  });
});
