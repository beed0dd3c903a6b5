import { mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { callTool, connectHttpClient, errorOf, structuredOf } from '../support/mcp-client.js';
import { type StdioProcess, startStdio } from '../support/stdio-process.js';

const running: StdioProcess[] = [];
const folders: string[] = [];

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'meridian-shared-'));
  folders.push(dir);
  return dir;
}

async function stdio(dir: string): Promise<StdioProcess> {
  const started = await startStdio(dir);
  running.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill().catch(() => undefined)));
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function createCalendar(process: StdioProcess): Promise<string> {
  return structuredOf(await process.call('create_calendar', { summary: 'Team' })).calendar_id as string;
}

async function createEvent(process: StdioProcess, calendarId: string, summary: string, day = 10) {
  const start = `2027-03-${day}T09:00:00Z`;
  const end = `2027-03-${day}T10:00:00Z`;
  return structuredOf(
    await process.call('create_event', {
      calendar_id: calendarId,
      summary,
      start: { date_time: start },
      end: { date_time: end },
    }),
  ).event_id as string;
}

async function summaries(process: StdioProcess, calendarId: string): Promise<string[]> {
  const listed = structuredOf(
    await process.call('list_events', {
      calendar_id: calendarId,
      start: '2027-03-01T00:00:00Z',
      end: '2027-04-01T00:00:00Z',
      format: 'json',
    }),
  );
  return (listed.events as { summary: string }[]).map((event) => event.summary).sort();
}

/** The inodes of the TCP sockets in LISTEN state on this machine (IPv4 and IPv6). */
async function listeningTcpInodes(): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return inodes;
}

async function socketInodesOf(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return targets.flatMap((target) => /^socket:\[(\d+)\]$/.exec(target)?.slice(1) ?? []);
}

async function modes(folder: string): Promise<{ path: string; mode: number; dir: boolean }[]> {
  const found: { path: string; mode: number; dir: boolean }[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path).catch(() => undefined);
    if (info) found.push({ path, mode: info.mode & 0o777, dir: info.isDirectory() });
  }
  return found;
}

// Every process is a fresh `node bin/meridian.mjs` (a few seconds each on a loaded machine).
describe('processes sharing one data folder', { timeout: 240_000 }, () => {
  it('share one store, and carry on without a failed call whichever of them exits, however', async () => {
    const dir = await dataDir();
    const first = await stdio(dir);
    const second = await stdio(dir);
    const calendarId = await createCalendar(first);
    await createEvent(first, calendarId, 'from first');
    expect(await summaries(second, calendarId)).toEqual(['from first']);

    // The process serving the store exits: the other takes it over.
    await first.close();
    await createEvent(second, calendarId, 'after the holder closed', 11);
    expect(await summaries(second, calendarId)).toEqual(['after the holder closed', 'from first']);

    // A process that only used the store exits: nothing changes for the rest.
    const third = await stdio(dir);
    await third.close();
    await createEvent(second, calendarId, 'after a user closed', 12);

    // The serving process is killed: the next one takes over, the data is whole.
    const fourth = await stdio(dir);
    await second.kill();
    await createEvent(fourth, calendarId, 'after the holder was killed', 13);
    expect(await summaries(fourth, calendarId)).toEqual([
      'after a user closed',
      'after the holder closed',
      'after the holder was killed',
      'from first',
    ]);
  });

  it('lets stdio carry on when the serve process that held the store stops', async () => {
    const dir = await dataDir();
    const server = await startServe(['--data-dir', dir], { MERIDIAN_SYNC_INTERVAL_MINUTES: '0' });
    const token = /mrd_\S+/.exec(
      (await meridian(['keys', 'create', '--label', 'k', '--data-dir', dir])).stdout,
    )?.[0];
    const http = await connectHttpClient(server.url, undefined, { authorization: `Bearer ${token}` });
    const made = await callTool(http, 'create_calendar', { summary: 'Web' });
    await http.close();
    const desktop = await stdio(dir);

    await server.stop();

    const listed = structuredOf(await desktop.call('list_calendars', { format: 'json' }));
    expect(JSON.stringify(listed)).toContain(structuredOf(made).calendar_id as string);
  });

  it('books a slot once when processes race for it: the rest get SLOT_TAKEN or LOCK_CONTENDED', async () => {
    const dir = await dataDir();
    const one = await stdio(dir);
    const two = await stdio(dir);
    const calendarId = await createCalendar(one);
    const slot = { calendar_id: calendarId, start: '2027-05-03T14:00:00Z', end: '2027-05-03T15:00:00Z' };

    const results = await Promise.all(
      [one, two, one, two, one, two].map((process, i) =>
        process.call('book_slot', { ...slot, summary: `attempt ${i}` }),
      ),
    );

    const booked = results.filter((result) => !result.isError);
    const refused = results.filter((result) => result.isError).map((result) => errorOf(result).code);
    expect(booked).toHaveLength(1);
    expect(refused).toHaveLength(5);
    for (const code of refused) expect(['SLOT_TAKEN', 'LOCK_CONTENDED']).toContain(code);
  });

  it('keeps the data folder private to its user and opens no TCP listener', async () => {
    const dir = await dataDir();
    const holder = await stdio(dir);
    await createCalendar(holder);

    const entries = await modes(dir);
    const listening = await listeningTcpInodes();
    const sockets = await socketInodesOf(holder.pid);

    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(entries.map((entry) => entry.path.slice(dir.length + 1))).toContain('dynamodb.sock');
    for (const entry of entries)
      expect([entry.path, entry.mode]).toEqual([entry.path, entry.dir ? 0o700 : 0o600]);
    expect(sockets.filter((inode) => listening.has(inode))).toEqual([]);
  });
});
