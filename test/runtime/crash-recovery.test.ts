import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dynaliteLevel } from '../../lambdas/adapters/dynamodb/dynalite-level.js';
import { errorOf, structuredOf } from '../support/mcp-client.js';
import { type StdioProcess, startStdio } from '../support/stdio-process.js';

const running: StdioProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill().catch(() => undefined)));
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function stdio(dir: string): Promise<StdioProcess> {
  const started = await startStdio(dir);
  running.push(started);
  return started;
}

const draft = (calendarId: string, summary: string, hour: number) => ({
  calendar_id: calendarId,
  summary,
  start: { date_time: `2027-02-01T${String(hour).padStart(2, '0')}:00:00Z` },
  end: { date_time: `2027-02-01T${String(hour).padStart(2, '0')}:30:00Z` },
});

async function listed(process: StdioProcess, calendarId: string) {
  const result = structuredOf(
    await process.call('list_events', {
      calendar_id: calendarId,
      start: '2027-02-01T00:00:00Z',
      end: '2027-02-02T00:00:00Z',
      max_results: 100,
      format: 'json',
    }),
  );
  return result.events as { id: string; summary: string }[];
}

/**
 * Deletes an event's item from dynalite's LevelDB and keeps its index entry: what a process killed
 * between dynalite's two writes of a put leaves (it writes index entries first, the item after).
 */
async function dropItemKeepIndex(dir: string, eventId: string): Promise<void> {
  const level = dynaliteLevel(join(dir, 'dynamodb'));
  await level.open();
  try {
    for await (const [key, value] of level.iterator({ gte: 'item-', lt: 'item.' })) {
      const sk = (value as { sk?: { S?: string } }).sk?.S;
      if (sk === `EVT#${eventId}`) await level.batch([{ type: 'del', key }]);
    }
  } finally {
    await level.close();
  }
}

describe('a crash of the process serving the store', { timeout: 240_000 }, () => {
  it('leaves no event that list_events shows but get_event cannot find (finding 3)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'meridian-crash-'));
    folders.push(dir);
    const first = await stdio(dir);
    const calendarId = structuredOf(await first.call('create_calendar', { summary: 'Crash' }))
      .calendar_id as string;
    const half = structuredOf(
      await first.call('create_event', draft(calendarId, 'half-written', 9)),
    ).event_id;
    await first.call('create_event', draft(calendarId, 'whole', 10));
    await first.close();
    await dropItemKeepIndex(dir, half as string);

    const next = await stdio(dir);
    const events = await listed(next, calendarId);
    const got = await next.call('get_event', { calendar_id: calendarId, event_id: half });

    expect(events.map((event) => event.summary)).toEqual(['whole']);
    expect(errorOf(got).code).toBe('NOT_FOUND');
  });

  it('after kill -9 during concurrent create_event, every listed event can be read and deleted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'meridian-kill-'));
    folders.push(dir);
    const victim = await stdio(dir);
    const calendarId = structuredOf(await victim.call('create_calendar', { summary: 'Kill' }))
      .calendar_id as string;
    let acknowledged = 0;
    const creations = Array.from({ length: 50 }, (_, i) =>
      victim.call('create_event', draft(calendarId, `event ${i}`, i % 24)).then(
        () => {
          acknowledged += 1;
        },
        () => undefined,
      ),
    );
    while (acknowledged < 5) await new Promise((resolve) => setTimeout(resolve, 5));

    await victim.kill();
    await Promise.all(creations);
    const next = await stdio(dir);
    const events = await listed(next, calendarId);

    expect(events.length).toBeGreaterThanOrEqual(acknowledged);
    for (const event of events) {
      const read = await next.call('get_event', { calendar_id: calendarId, event_id: event.id });
      expect((structuredOf(read).event as { summary: string }).summary).toBe(event.summary);
      expect(
        (await next.call('delete_event', { calendar_id: calendarId, event_id: event.id })).isError,
      ).toBeFalsy();
    }
    expect(await listed(next, calendarId)).toEqual([]);
  });
});
