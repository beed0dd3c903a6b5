import type { Client } from '@modelcontextprotocol/client';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import type { EventDraft } from '../../../lambdas/core/calendar/event.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { type CallToolResult, callTool, okTool } from '../../support/mcp-client.js';
import { serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/** Monday 23 November 2026, noon UTC: "the last 30 days" reach back to 24 October. */
export const NOW = '2026-11-23T12:00:00Z';
export const OWNER = 'me@meridian.dev';

export interface RulesHttp {
  runtime: TestRuntime;
  calendarId: string;
  /** One agent per key: `alice` may write the calendar, `bob` only read it. */
  agents: { alice: Agent; bob: Agent };
  /** An event on the calendar at a Berlin wall-clock time (`2026-11-16T09:00:00`). */
  addEvent(summary: string, start: string, minutes: number, extra?: Partial<EventDraft>): Promise<string>;
  close(): Promise<void>;
}

export interface Agent {
  keyId: string;
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The structuredContent of a successful call; throws with the error text otherwise. */
  ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T>;
}

/**
 * A real runtime on dynalite behind the HTTP server, one native calendar "Work" (Europe/Berlin,
 * owned by me@meridian.dev), and two keys with the SDK's real Client over Streamable HTTP.
 */
export async function startRulesHttp(): Promise<RulesHttp> {
  const runtime = await startTestRuntime({ clock: fixedClock(NOW), defaultTimezone: 'Europe/Berlin' });
  const served = await serveRuntime(runtime);
  const calendar = await runtime.calendars.createCalendar(LOCAL_OWNER, {
    name: 'Work',
    time_zone: 'Europe/Berlin',
    owner_email: OWNER,
  });
  const agent = async (label: string, right: 'read' | 'write'): Promise<Agent> => {
    const { client, keyId } = await served.connect(label);
    await runtime.access.setGrant(keyId, calendarResource(calendar.id), right);
    return {
      keyId,
      client,
      call: (name, args) => callTool(client, name, args),
      ok: <T>(name: string, args: Record<string, unknown>) => okTool<T>(client, name, args),
    };
  };
  const agents = { alice: await agent('alice', 'write'), bob: await agent('bob', 'read') };
  return {
    runtime,
    calendarId: calendar.id,
    agents,
    async addEvent(summary, start, minutes, extra = {}) {
      const end = new Date(Date.parse(`${start}Z`) + minutes * 60_000).toISOString().slice(0, 19);
      const event = await runtime.calendars.createEvent(LOCAL_OWNER, calendar.id, {
        summary,
        start: { date_time: start, time_zone: 'Europe/Berlin' },
        end: { date_time: end, time_zone: 'Europe/Berlin' },
        ...extra,
      });
      return event.id;
    },
    close: () => served.close(),
  };
}

/** An attendee list: the calendar owner (accepted) and guests. */
export function guests(...emails: string[]): EventDraft['attendees'] {
  return [
    { email: OWNER, response_status: 'accepted' },
    ...emails.map((email) => ({ email, response_status: 'accepted' as const })),
  ];
}
