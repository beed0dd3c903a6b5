import type { Client, Tool } from '@modelcontextprotocol/client';
import { calendarResource, LOCAL_OWNER } from '../../../../lambdas/core/access/rights.js';
import { fixedClock } from '../../../../lambdas/core/ports/index.js';
import { type CallToolResult, callTool, okTool, type ToolOutput } from '../../../support/mcp-client.js';
import { serveRuntime } from '../../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../../support/test-runtime.js';

export const NEW_YORK = 'America/New_York';

/** A served runtime with a New York calendar and a zoneless one, and an agent that may write both. */
export interface SilentWorld {
  runtime: TestRuntime;
  /** Calendar ids: `ny` is in America/New_York, `none` has no zone. */
  calendars: { ny: string; none: string };
  /** The agent's SDK Client, for resources and the tool listing. */
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  ok<T = ToolOutput>(name: string, args: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
  /** tools/list as the agent's client receives it. */
  listTools(): Promise<Tool[]>;
}

/**
 * The world issue 22's silent answers were met in, in miniature: the SDK's real Client over
 * Streamable HTTP against `meridian serve`'s HTTP path, the clock frozen at `now`.
 */
export async function startSilentWorld(
  now: string,
  options: { defaultTimezone?: string } = {},
): Promise<SilentWorld> {
  const runtime = await startTestRuntime({
    clock: fixedClock(now),
    ...(options.defaultTimezone ? { defaultTimezone: options.defaultTimezone } : {}),
  });
  const served = await serveRuntime(runtime);
  const ny = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'New York', time_zone: NEW_YORK });
  const none = await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'No zone' });
  const { client, keyId } = await served.connect('agent');
  for (const id of [ny.id, none.id]) await runtime.access.setGrant(keyId, calendarResource(id), 'write');
  return {
    runtime,
    calendars: { ny: ny.id, none: none.id },
    client,
    call: (name, args) => callTool(client, name, args),
    ok: (name, args) => okTool(client, name, args),
    close: () => served.close(),
    listTools: async () => (await client.listTools()).tools,
  };
}
