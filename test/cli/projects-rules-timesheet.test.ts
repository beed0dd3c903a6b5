import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { connectHttpClient, okTool } from '../support/mcp-client.js';

/** Two events in ISO week 2026-W47 (past, so `rules test`'s default window of 30 days reaches them). */
const WEEK = '2026-W47';

/**
 * The owner's path through `meridian projects|rules|timesheet` while `meridian serve` runs on the
 * same data dir: an agent puts events on a calendar over HTTP, the owner creates a project, tries
 * a query, and reads the week's timesheet from the shell.
 */
// Each step spawns a fresh CLI process (about 2 s each on a loaded 2-core machine).
describe('meridian projects / rules / timesheet', { timeout: 180_000 }, () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let agent: Client;
  let projectId: string;
  let agentKeyId: string;
  const cli = (...args: string[]) => meridian([...args, '--data-dir', dataDir, '--timezone', 'UTC']);

  const call = (name: string, args: Record<string, unknown>) =>
    okTool<Record<string, unknown>>(agent, name, args);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-rules-cli-'));
    server = await startServe(['--data-dir', dataDir, '--timezone', 'UTC']);
    const created = await cli('keys', 'create', '--label', 'agent');
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)![0];
    agentKeyId = token.split('_')[1]!;
    agent = await connectHttpClient(server.url, undefined, { authorization: `Bearer ${token}` });
    const calendar = (await call('create_calendar', { summary: 'Work' })).calendar_id;
    const at = (instant: string) => ({ date_time: instant, time_zone: 'UTC' });
    await call('create_event', {
      calendar_id: calendar,
      summary: 'Acme sync',
      start: at('2026-11-17T10:00:00Z'),
      end: at('2026-11-17T11:00:00Z'),
      attendees: ['bob@acme.com'],
    });
    await call('create_event', {
      calendar_id: calendar,
      summary: 'Lunch',
      start: at('2026-11-18T12:00:00Z'),
      end: at('2026-11-18T12:20:00Z'),
    });
  });

  afterAll(async () => {
    await agent?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a project with billing fields and lists it', async () => {
    const created = await cli(
      'projects',
      'create',
      '--name',
      'Acme website',
      '--billable',
      'yes',
      '--rounding',
      '15:up',
    );
    projectId = /prj_[0-9a-f]+/.exec(created.stdout)![0];
    const listed = await cli('projects', 'list');

    expect(created.stdout).toContain('Acme website  billable  rounds to 15 min (up)');
    expect(listed.stdout).toContain(`${projectId}  Acme website`);
  });

  it("refuses a bad field with the tool's message: the field, the shape and an example", async () => {
    const refused = cli('projects', 'create', '--name', 'X', '--color', 'red');

    await expect(refused).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/"color": expected a color as #rrggbb.*"#1a73e8"/),
    });
  });

  it('updates and archives a project; an archived one is listed only with --all', async () => {
    const updated = await cli('projects', 'update', projectId, '--client', 'Acme Corp');
    const archived = await cli('projects', 'archive', projectId);
    const active = await cli('projects', 'list');
    const all = await cli('projects', 'list', '--all');
    await cli('projects', 'update', projectId, '--archived', 'no');

    expect(updated.stdout).toContain('client: Acme Corp');
    expect(archived.stdout).toMatch(/^Archived .*\(archived\)$/m);
    expect(active.stdout).toContain('No projects yet');
    expect(all.stdout).toContain(`${projectId}  Acme website  client: Acme Corp`);
  });

  it('tests a query: the events it matches, with the conditions that held', async () => {
    const { stdout } = await cli(
      'rules',
      'test',
      'domain:acme.com',
      '--start',
      '2026-11-16T00:00:00Z',
      '--end',
      '2026-11-23T00:00:00Z',
    );

    expect(stdout).toContain('domain:acme.com: 1 events, 60 minutes');
    expect(stdout).toMatch(/2026-11-17T10:00:00.*Acme sync.*domain:acme\.com/);
    expect(stdout).not.toContain('Lunch');
  });

  it('stops on a query that does not parse, with a caret under the spot', async () => {
    const refused = cli('rules', 'test', 'title:a OR');

    await expect(refused).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('  title:a OR\n          ^'),
    });
  });

  it('lists saved rules with their project and what they matched', async () => {
    // The owner created the project: the agent's key may write rules into it once granted.
    await cli('grants', 'set', agentKeyId, `project/${projectId}`, 'write');
    await call('create_rule', { query: 'domain:acme.com', project_id: projectId });

    const { stdout } = await cli('rules', 'list');

    expect(stdout).toMatch(/rul_\w+ {2}Acme website {2}weight 1 {2}matched 1, won 1 {2}domain:acme\.com/);
  });

  it("prints a week's timesheet by project with rounded and billable hours, and the unclassified time", async () => {
    const { stdout } = await cli('timesheet', '--week', WEEK);

    expect(stdout).toContain(
      `Timesheet ${WEEK} (2026-11-16T00:00:00.000Z to 2026-11-23T00:00:00.000Z, UTC), by project`,
    );
    expect(stdout).toMatch(/^Acme website +1:00 +1:00 +1:00 +1$/m);
    expect(stdout).toMatch(/^Unclassified +0:20 +0:20 +0:00 +1$/m);
    expect(stdout).toMatch(/^Total +1:20 +1:20 +1:00 +2$/m);
    expect(stdout).toMatch(/^ {2}lunch +0:20 \(1\)$/m);
  });

  it('prints the timesheet as CSV, grouped as asked', async () => {
    const { stdout } = await cli('timesheet', '--week', WEEK, '--csv', '--group-by', 'day');

    expect(stdout.trimEnd().split('\r\n')).toEqual([
      'key,label,raw_minutes,rounded_minutes,billable_minutes,events',
      '2026-11-17,2026-11-17,60,60,60,1',
      '2026-11-18,2026-11-18,20,20,0,1',
      'total,Total,80,80,60,2',
    ]);
  });

  it('refuses a week that is not an ISO week, with the shape and an example', async () => {
    await expect(cli('timesheet', '--week', '2026-47')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('expected YYYY-Www'),
    });
  });

  it('refuses --aws: projects, rules and timesheets run on the data dir', async () => {
    await expect(cli('projects', 'list', '--aws')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('this command runs on the data dir'),
    });
  });
});
