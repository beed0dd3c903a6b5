import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { type CallToolResult, connectHttpClient, errorOf } from '../support/mcp-client.js';

/**
 * The owner's path through the CLI while `meridian serve` runs: create a key (shown once), let
 * the agent create a calendar, grant a second key read access, revoke — all against one data dir
 * that the server holds open (CLI commands join it).
 */
// Each step spawns a fresh CLI process (about 2 s each on a loaded 2-core machine).
describe('meridian keys / grants / calendars with a running server', { timeout: 90_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-cli-'));
    server = await startServe(['--data-dir', dataDir]);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const keyFrom = (stdout: string) => {
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(stdout)?.[0];
    if (!token) throw new Error(`no key in: ${stdout}`);
    return { token, keyId: token.split('_')[1]! };
  };

  it('creates a key that works against the running server, and keeps secrets out of reach', async () => {
    const created = await meridian(['keys', 'create', '--label', 'laptop', '--data-dir', dataDir]);
    const { token } = keyFrom(created.stdout);
    expect(created.stdout).toMatch(/shown only once/);

    const client = await connectHttpClient(server.url, undefined, { authorization: `Bearer ${token}` });
    const made = (await client.callTool({
      name: 'create_calendar',
      arguments: { summary: 'Team' },
    })) as CallToolResult;
    await client.close();

    expect(made.structuredContent?.calendar_id).toMatch(/^native\//);
    expect((await stat(join(dataDir, 'master.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(dataDir)).mode & 0o077).toBe(0);
  });

  it('stores a key label under the one rule for stored text: controls and invisible characters go', async () => {
    const created = await meridian([
      'keys',
      'create',
      '--label',
      'lap\u200Btop\u202E ci',
      '--data-dir',
      dataDir,
    ]);
    const { keyId } = keyFrom(created.stdout);

    const listed = await meridian(['keys', 'list', '--data-dir', dataDir]);

    const line = listed.stdout.split('\n').find((row) => row.includes(keyId));
    expect(line).toContain('laptop ci');
    expect(line).not.toMatch(/[\u200B\u202E]/);
  });

  it('refuses a key label with no visible text', async () => {
    await expect(
      meridian(['keys', 'create', '--label', '\u200B\u0007', '--data-dir', dataDir]),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('visible text'),
    });
  });

  it('grants another key read access to that calendar, and revocation cuts it off', async () => {
    const calendars = await meridian(['calendars', 'list', '--data-dir', dataDir]);
    const calendarId = /native\/\S+/.exec(calendars.stdout)?.[0];
    const reader = keyFrom(
      (await meridian(['keys', 'create', '--label', 'reader', '--data-dir', dataDir])).stdout,
    );

    await meridian(['grants', 'set', reader.keyId, calendarId!, 'read', '--data-dir', dataDir]);
    const grants = await meridian(['grants', 'list', reader.keyId, '--data-dir', dataDir]);
    const client = await connectHttpClient(server.url, undefined, {
      authorization: `Bearer ${reader.token}`,
    });
    const listed = (await client.callTool({
      name: 'list_calendars',
      arguments: { format: 'json' },
    })) as CallToolResult;
    const write = (await client.callTool({
      name: 'create_event',
      arguments: {
        calendar_id: calendarId,
        summary: 'x',
        start: { date: '2026-01-01' },
        end: { date: '2026-01-02' },
      },
    })) as CallToolResult;
    await meridian(['keys', 'revoke', reader.keyId, '--data-dir', dataDir]);

    expect(grants.stdout).toContain(`${calendarId}  read`);
    expect(listed.structuredContent?.calendars).toMatchObject([
      { id: calendarId, can_read: true, can_write: false },
    ]);
    expect(errorOf(write)).toMatchObject({ code: 'FORBIDDEN', missing_right: 'write' });
    await expect(client.listTools()).rejects.toThrow(/401|unknown, expired, revoked/);
    const keys = await meridian(['keys', 'list', '--data-dir', dataDir]);
    expect(keys.stdout).toMatch(new RegExp(`${reader.keyId}.*REVOKED`));
  });

  it('grants a key a right on a project named project/<id>, and lists it beside its calendars', async () => {
    const { keyId } = keyFrom(
      (await meridian(['keys', 'create', '--label', 'planner', '--data-dir', dataDir])).stdout,
    );

    const set = await meridian(['grants', 'set', keyId, 'project/acme', 'write', '--data-dir', dataDir]);
    const listed = await meridian(['grants', 'list', keyId, '--data-dir', dataDir]);

    expect(set.stdout).toContain(`${keyId} → project/acme: read+write`);
    expect(listed.stdout).toContain('project/acme  read+write');
  });

  it('refuses a project resource without an id, with exit code 2 and an example', async () => {
    const { keyId } = keyFrom(
      (await meridian(['keys', 'create', '--label', 'vague', '--data-dir', dataDir])).stdout,
    );

    await expect(
      meridian(['grants', 'set', keyId, 'project/', 'read', '--data-dir', dataDir]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('e.g. "project/acme"') });
  });

  it("stores a key's default toolsets at creation, and changes them", async () => {
    const created = await meridian([
      'keys',
      'create',
      '--label',
      'timer',
      '--toolsets',
      'time',
      '--data-dir',
      dataDir,
    ]);
    const { token, keyId } = keyFrom(created.stdout);
    const namesSeen = async () => {
      const client = await connectHttpClient(server.url, undefined, { authorization: `Bearer ${token}` });
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      await client.close();
      return names;
    };

    const before = await namesSeen();
    await meridian(['keys', 'toolsets', keyId, 'calendar,availability', '--data-dir', dataDir]);
    const after = await namesSeen();
    const keys = await meridian(['keys', 'list', '--data-dir', dataDir]);

    expect(before).toContain('resolve_datetime');
    expect(before).not.toContain('list_events');
    expect(after).toEqual(expect.arrayContaining(['list_events', 'book_slot']));
    expect(after).not.toContain('resolve_datetime');
    expect(keys.stdout).toMatch(new RegExp(`${keyId}.*calendar,availability`));
  });

  it('refuses an unknown toolset with exit code 2, naming the known ones', async () => {
    await expect(
      meridian(['keys', 'create', '--label', 'x', '--toolsets', 'time,rulez', '--data-dir', dataDir]),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown toolset "rulez".*time, calendar, availability/),
    });
  });

  it('explains a usage mistake with exit code 2', async () => {
    await expect(meridian(['keys', 'create', '--data-dir', dataDir])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--label'),
    });
  });
});

describe('meridian serve --toolsets', { timeout: 90_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-cli-toolsets-'));
    server = await startServe(['--data-dir', dataDir, '--toolsets', 'availability']);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives connections that choose nothing its toolsets, and lets the URL choose others', async () => {
    const created = await meridian(['keys', 'create', '--label', 'agent', '--data-dir', dataDir]);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    const headers = { authorization: `Bearer ${token}` };
    const plain = await connectHttpClient(server.url, undefined, headers);
    const chosen = await connectHttpClient(`${server.url}?toolsets=time`, undefined, headers);

    const plainNames = (await plain.listTools()).tools.map((tool) => tool.name);
    const chosenNames = (await chosen.listTools()).tools.map((tool) => tool.name);
    await plain.close();
    await chosen.close();

    expect(plainNames).toEqual([
      'find_free_time',
      'find_free_slots',
      'check_availability',
      'get_availability',
      'book_slot',
    ]);
    expect(chosenNames).toContain('get_temporal_context');
    expect(chosenNames).not.toContain('book_slot');
  });
});
