import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SyncingCalDavProvider } from '../../lambdas/adapters/caldav/caldav-sync.js';
import { createEmbeddedRuntime } from '../../lambdas/runtime/embedded.js';
import { secretContext } from '../../lambdas/runtime/provider-resolver.js';
import { type RadicaleServer, startRadicale } from '../support/radicale.js';
import { needs, RADICALE } from '../support/system-parts.js';

const USER = 'alice@example.com';
const PASSWORD = 'correct horse battery staple';

/** `meridian sync` as a user runs it in CI (no terminal): exit code and both streams. */
function meridianSync(dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/meridian.mjs', 'sync', '--data-dir', dataDir],
      { env: { ...process.env, CI: 'true' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Stores a CalDAV connection and one of its calendars in the data dir, as `meridian connect` would. */
async function connectCalDav(dataDir: string, serverUrl: string, nativeId: string): Promise<string> {
  const runtime = await createEmbeddedRuntime({ dataDir, host: '127.0.0.1', port: 0 });
  try {
    const connection = { connection_id: 'c1', provider: 'caldav' as const };
    const secret = await runtime.encryption.encrypt(
      Buffer.from(JSON.stringify({ password: PASSWORD }), 'utf8'),
      secretContext(connection),
    );
    await runtime.registry.putConnection({
      ...connection,
      connection_kind: 'password',
      account: USER,
      label: null,
      server_url: serverUrl,
      secret_ciphertext: Buffer.from(secret).toString('base64'),
      created_at: new Date().toISOString(),
    });
    const calendarId = `caldav/c1/${nativeId}`;
    await runtime.registry.putCalendar({
      calendar_id: calendarId,
      provider: 'caldav',
      connection_id: 'c1',
      native_id: nativeId,
      name: 'Work',
      label: null,
      primary: false,
      access_role: 'owner',
      created_at: new Date().toISOString(),
    });
    return calendarId;
  } finally {
    await runtime.close();
  }
}

describe('meridian sync (no terminal)', needs(RADICALE), () => {
  let dataDir: string;
  let radicale: RadicaleServer;

  beforeAll(async () => {
    radicale = await startRadicale({ [USER]: PASSWORD });
  });
  afterAll(async () => {
    await radicale?.stop();
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-sync-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports 0 calendars on an empty data dir and exits 0', async () => {
    const result = await meridianSync(dataDir);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Summary: 0 calendars synced, 0 unchanged, 0 skipped, 0 failed; 0 events upserted, 0 deleted.\n',
    );
    expect(result.stderr).not.toMatch(/Failures/);
  });

  it('syncs a CalDAV calendar, then finds it unchanged', async () => {
    const provider = new SyncingCalDavProvider({
      serverUrl: radicale.url,
      username: USER,
      password: PASSWORD,
      calendarPrefix: 'caldav/c1/',
    });
    const calendar = await provider.createCalendar({ name: 'Work' });
    const tomorrow = new Date(Date.now() + 86_400_000);
    await provider.createEvent(provider.calendarRef(calendar), {
      summary: 'Review',
      start: { date_time: tomorrow.toISOString() },
      end: { date_time: new Date(tomorrow.getTime() + 3_600_000).toISOString() },
    });
    const calendarId = await connectCalDav(dataDir, radicale.url, calendar.native_id);

    const first = await meridianSync(dataDir);
    const second = await meridianSync(dataDir);

    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`[1/1] ${calendarId} done\n`);
    expect(first.stdout).toContain(`  ${calendarId}  synced (full: never synced), 1 upserted, 0 deleted\n`);
    expect(first.stdout).toContain(
      'Summary: 1 calendar synced, 0 unchanged, 0 skipped, 0 failed; 1 event upserted',
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`  ${calendarId}  unchanged\n`);
  });

  it('exits 1 and names the failure when a calendar cannot be synced', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const calendarId = await connectCalDav(dataDir, 'http://127.0.0.1:9/', 'work');

    const result = await meridianSync(dataDir);

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`[1/1] ${calendarId} failed\n`);
    expect(result.stdout).toContain(`  ${calendarId}  FAILED: PROVIDER_ERROR\n`);
    expect(result.stdout).toContain('0 calendars synced, 0 unchanged, 0 skipped, 1 failed');
    expect(result.stderr).toMatch(
      new RegExp(
        `Failures:\\n  ${calendarId}: PROVIDER_ERROR — Could not reach the CalDAV server at http://127.0.0.1:9`,
      ),
    );
  });
});

describe('meridian serve and its sync timer', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-serve-sync-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts serve, waits for a stderr line matching `until`, stops it; resolves with stderr and exit code. */
  function serveUntil(
    env: Record<string, string>,
    until: RegExp,
  ): Promise<{ stderr: string; code: number | null }> {
    const child = spawn(
      process.execPath,
      ['bin/meridian.mjs', 'serve', '--port', '0', '--data-dir', dataDir],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGTERM');
        reject(new Error(`no ${until} within 30 s: ${stderr}`));
      }, 30_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (until.test(stderr)) child.kill('SIGTERM');
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ stderr, code });
      });
    });
  }

  it('syncs once at start and logs the run on stderr', async () => {
    const { stderr, code } = await serveUntil(
      { MERIDIAN_SYNC_INTERVAL_MINUTES: '1' },
      /sync: run finished.*\n/,
    );

    const line = stderr.split('\n').find((l) => l.includes('sync: run finished'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'INFO', synced: 0, failed: 0, native: 0 });
    expect(code).toBe(0);
  });

  it('refuses to start with a sync interval that is not whole minutes', async () => {
    const { stderr, code } = await serveUntil({ MERIDIAN_SYNC_INTERVAL_MINUTES: 'often' }, /$^/);

    expect(code).toBe(2);
    expect(stderr).toContain('MERIDIAN_SYNC_INTERVAL_MINUTES must be a whole number of minutes');
  });
});
