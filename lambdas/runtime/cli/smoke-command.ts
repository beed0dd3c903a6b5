import type { Client } from '@modelcontextprotocol/client';
import type { CliOutput } from './access-commands.js';
import { UsageError } from './access-commands.js';

/**
 * `meridian smoke URL [--api-key K]`: what a person runs after `cdk deploy` (and CI runs against
 * the deploy rehearsal) to see that a deployment answers end to end: health, the server's
 * metadata, a tool of each toolset, a booking and its release, a snapshot. One line per check
 * with PASS/FAIL and its time; the run fails if any check does.
 *
 * It leaves nothing of its own behind except what no tool can delete: the booked event is deleted
 * (even when a later check fails), and the calendar and project it needs are found by name and
 * reused from one run to the next, so repeated runs do not pile them up. Snapshots have no delete
 * tool: each run's snapshot stays, in the smoke project only.
 */

/** The name of the native calendar and of the project the smoke test reuses. */
export const SMOKE_FIXTURE_NAME = 'Meridian smoke test';

export interface SmokeTarget {
  /** The MCP endpoint (`https://…/mcp`); the deployment's base URL is accepted too. */
  url: string;
  apiKey?: string | undefined;
  /** For tests: a fetch into a handler instead of the network. */
  fetch?: typeof fetch;
}

export interface SmokeCheck {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

export interface SmokeReport {
  ok: boolean;
  checks: SmokeCheck[];
}

/** The MCP URL and the health URL beside it, from what the user passed. */
export function smokeUrls(text: string): { mcpUrl: URL; healthUrl: URL } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `"${text}" is not a URL: give the McpEndpointUrl output of the stack (https://…/mcp).`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`"${text}" is not an http(s) URL.`);
  const path = url.pathname.replace(/\/+$/, '');
  const mcpUrl = new URL(url);
  mcpUrl.pathname = path.endsWith('/mcp') ? path : `${path}/mcp`;
  const healthUrl = new URL(mcpUrl);
  healthUrl.pathname = mcpUrl.pathname.replace(/\/mcp$/, '/health');
  healthUrl.search = '';
  return { mcpUrl, healthUrl };
}

type ToolOutput = Record<string, unknown>;

/** A failed check's reason, shown on its line. */
class CheckFailed extends Error {
  override name = 'CheckFailed';
}

/**
 * Runs every check against `target`, printing a line per check, and returns the report.
 *
 * @example
 * const { ok } = await smokeCommand({ url: 'https://abc.execute-api.eu-west-1.amazonaws.com/mcp', apiKey }, out);
 */
export async function smokeCommand(target: SmokeTarget, out: CliOutput): Promise<SmokeReport> {
  const { mcpUrl, healthUrl } = smokeUrls(target.url);
  const doFetch = target.fetch ?? fetch;
  const headers: Record<string, string> = target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {};
  const checks: SmokeCheck[] = [];
  const started = performance.now();

  /** Runs one check; a check after a failed prerequisite is reported as not run. */
  const check = async <T>(
    name: string,
    body: () => Promise<{ value: T; detail: string }>,
  ): Promise<T | undefined> => {
    const begin = performance.now();
    try {
      const { value, detail } = await body();
      record({ name, ok: true, ms: performance.now() - begin, detail });
      return value;
    } catch (error) {
      record({ name, ok: false, ms: performance.now() - begin, detail: reason(error) });
      return undefined;
    }
  };
  const record = (result: SmokeCheck) => {
    checks.push(result);
    out.line(
      `${result.ok ? 'PASS' : 'FAIL'}  ${result.name.padEnd(34)} ${formatMs(result.ms).padStart(8)}  ${result.detail}`,
    );
  };
  const skip = (name: string, why: string) => record({ name, ok: false, ms: 0, detail: `not run: ${why}` });

  out.line(`meridian smoke ${mcpUrl.href}`);
  await check('health', async () => {
    const response = await doFetch(healthUrl, { headers: { accept: 'application/json' } });
    const body = (await response.json().catch(() => undefined)) as
      | { status?: string; version?: string }
      | undefined;
    if (response.status !== 200 || body?.status !== 'ok')
      throw new CheckFailed(`GET ${healthUrl.pathname} answered ${response.status} ${JSON.stringify(body)}`);
    return { value: body, detail: `status ok, version ${body.version ?? '?'}` };
  });

  const client = await check('metadata', async () => {
    const connected = await connect(mcpUrl, headers, doFetch);
    const server = connected.getServerVersion();
    const { tools } = await connected.listTools();
    return {
      value: connected,
      detail: `${server?.name ?? '?'} ${server?.version ?? '?'}, protocol ${connected.getNegotiatedProtocolVersion() ?? '?'}, ${tools.length} tools`,
    };
  });
  if (!client) {
    for (const name of LATER_CHECKS) skip(name, 'no MCP connection');
    return finish();
  }

  const callResult = async (name: string, args: ToolOutput) =>
    (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: ToolOutput;
      content?: { type: string; text?: string }[];
    };
  const call = async (name: string, args: ToolOutput): Promise<ToolOutput> => {
    const result = await callResult(name, args);
    if (result.isError) {
      const text = result.content?.map((part) => part.text ?? '').join(' ') ?? '';
      throw new CheckFailed(`${name}: ${text.slice(0, 300)}`);
    }
    return result.structuredContent ?? {};
  };

  let bookedEvent: { calendar_id: string; event_id: string } | undefined;
  try {
    await check('time: get_temporal_context', async () => {
      const context = await call('get_temporal_context', {});
      return { value: context, detail: `${String(context.utc)} (${String(context.timezone)})` };
    });

    const calendarId = await check('calendar: smoke calendar', async () => {
      const { calendars } = (await call('list_calendars', { provider: 'native', format: 'json' })) as {
        calendars: { id: string; name: string }[];
      };
      const existing = calendars.find((calendar) => calendar.name === SMOKE_FIXTURE_NAME);
      if (existing) return { value: existing.id, detail: `reused ${existing.id}` };
      const created = await call('create_calendar', { summary: SMOKE_FIXTURE_NAME });
      return {
        value: String(created.calendar_id),
        detail: `created ${String(created.calendar_id)} (kept for the next run)`,
      };
    });

    // A quarter hour at a random time months ahead: two runs at once do not contend for one slot.
    const slotStart = new Date(
      Math.ceil((Date.now() + 200 * 86_400_000 + Math.random() * 100 * 86_400_000) / 900_000) * 900_000,
    );
    const slot = {
      start: slotStart.toISOString(),
      end: new Date(slotStart.getTime() + 900_000).toISOString(),
    };

    if (calendarId === undefined) {
      for (const name of ['availability: check_availability', 'booking: book_slot', 'booking: release'])
        skip(name, 'no calendar');
    } else {
      await check('availability: check_availability', async () => {
        const answer = await call('check_availability', { calendar_id: calendarId, ...slot });
        if (answer.available !== true)
          throw new CheckFailed(`${slot.start} is not free: ${JSON.stringify(answer)}`);
        return { value: answer, detail: `${slot.start} free` };
      });
      bookedEvent = await check('booking: book_slot', async () => {
        const booking = await call('book_slot', {
          calendar_id: calendarId,
          ...slot,
          summary: 'meridian smoke booking (deleted by the same run)',
        });
        return {
          value: { calendar_id: calendarId, event_id: String(booking.event_id) },
          detail: `booked ${String(booking.booking_id)} → event ${String(booking.event_id)}`,
        };
      });
      if (!bookedEvent) skip('booking: release', 'nothing booked');
      else {
        const booked = bookedEvent;
        await check('booking: release', async () => {
          await call('delete_event', booked);
          bookedEvent = undefined;
          // The slot itself stays marked as just booked for a few minutes (BOOKED_VISIBLE_MS), by
          // design; the event must be gone at once.
          const after = await callResult('get_event', booked);
          if (!after.isError)
            throw new CheckFailed(`get_event still finds ${booked.event_id} after delete_event`);
          return { value: true, detail: `event ${booked.event_id} deleted` };
        });
      }
    }

    const projectId = await check('rules: smoke project', async () => {
      const { projects } = (await call('list_projects', { format: 'json' })) as {
        projects: { project_id: string; name: string }[];
      };
      const existing = projects.find((project) => project.name === SMOKE_FIXTURE_NAME);
      if (existing) return { value: existing.project_id, detail: `reused ${existing.project_id}` };
      const created = (await call('create_project', { name: SMOKE_FIXTURE_NAME })) as {
        project: { project_id: string };
      };
      return {
        value: created.project.project_id,
        detail: `created ${created.project.project_id} (kept for the next run)`,
      };
    });
    if (projectId === undefined) {
      for (const name of ['memory: list_branches', 'memory: create_snapshot']) skip(name, 'no project');
    } else {
      await check('memory: list_branches', async () => {
        const answer = await call('list_branches', { project_id: projectId, format: 'json' });
        return { value: answer, detail: `${String(answer.total_branches ?? '?')} branches` };
      });
      await check('memory: create_snapshot', async () => {
        const snapshot = await call('create_snapshot', {
          project_id: projectId,
          description: 'meridian smoke',
        });
        if (snapshot.verified !== true) throw new CheckFailed(`not verified: ${String(snapshot.message)}`);
        return {
          value: snapshot,
          detail: `${String(snapshot.snapshot_id)}, ${String(snapshot.size_bytes)} bytes, verified (kept: no tool deletes a snapshot)`,
        };
      });
    }
  } finally {
    // A booking whose release check failed is still removed, if the deployment lets it be.
    if (bookedEvent) {
      const leftover = bookedEvent;
      await check('cleanup: delete booked event', async () => {
        await call('delete_event', leftover);
        return { value: true, detail: `deleted ${leftover.event_id}` };
      });
    }
    await client.close().catch(() => undefined);
  }
  return finish();

  function finish(): SmokeReport {
    const failed = checks.filter((result) => !result.ok).length;
    out.line(
      `${failed === 0 ? 'smoke passed' : 'smoke FAILED'}: ${checks.length - failed} passed, ${failed} failed in ${formatMs(performance.now() - started)}`,
    );
    return { ok: failed === 0, checks };
  }
}

const LATER_CHECKS = [
  'time: get_temporal_context',
  'calendar: smoke calendar',
  'availability: check_availability',
  'booking: book_slot',
  'booking: release',
  'rules: smoke project',
  'memory: list_branches',
  'memory: create_snapshot',
];

/**
 * The MCP SDK's client, loaded only by this command. It negotiates as a client of either era
 * would: `server/discover` first (2026-07-28), the 2025 `initialize` handshake otherwise. The
 * client package is a development dependency: the smoke test runs from a checkout, the one
 * `cdk deploy` runs from.
 */
async function connect(url: URL, headers: Record<string, string>, doFetch: typeof fetch): Promise<Client> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'meridian-smoke', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: doFetch, requestInit: { headers } }));
  return client;
}

function reason(error: unknown): string {
  if (error instanceof CheckFailed) return error.message;
  const { name, message } = error as Error;
  return `${name ?? 'Error'}: ${String(message ?? error).slice(0, 300)}`;
}

function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
