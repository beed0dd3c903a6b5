import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';

const run = promisify(execFile);

/** Another OS user: `nobody` on Debian. Tests run as root here, which may chown to it. */
const OTHER_UID = 65534;
const ZERO_KEY = Buffer.alloc(32);

const folders: string[] = [];

afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A parent folder only this user reaches, with `name` in it (not created). */
async function place(name = 'data'): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'meridian-planted-'));
  folders.push(parent);
  return join(parent, name);
}

/** A data folder as another user would plant it: their all-zero master key in it. */
async function plant(dir: string, options: { mode: number; uid?: number }): Promise<void> {
  await mkdir(dir);
  await writeFile(join(dir, 'master.key'), ZERO_KEY, { mode: 0o600 });
  await chmod(dir, options.mode);
  if (options.uid !== undefined) {
    await chown(join(dir, 'master.key'), options.uid, options.uid);
    await chown(dir, options.uid, options.uid);
  }
}

/** `meridian <args>`'s failure: its exit code and stderr (it must fail). */
async function refusal(args: string[]): Promise<{ code: number; stderr: string }> {
  const outcome = await meridian(args).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  if (!outcome) throw new Error(`meridian ${args.join(' ')} succeeded`);
  return { code: outcome.code, stderr: outcome.stderr };
}

/** `meridian stdio` as a desktop client starts it, stdin closed at once: it must refuse to start. */
async function stdioRefusal(dir: string): Promise<string> {
  const outcome = await run(process.execPath, ['bin/meridian.mjs', 'stdio', '--data-dir', dir], {
    timeout: 60_000,
  }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  if (!outcome) throw new Error('meridian stdio started');
  expect(outcome.code).toBe(2);
  return outcome.stderr;
}

/** Nothing of Meridian's was written into the planted folder: only the planter's key. */
async function untouched(dir: string): Promise<void> {
  expect(await readdir(dir)).toEqual(['master.key']);
  expect(await readFile(join(dir, 'master.key'))).toEqual(ZERO_KEY);
}

beforeAll(() => {
  if (process.getuid?.() !== 0) throw new Error('these tests chown to another user: run them as root');
});

// Every case starts a fresh `node bin/meridian.mjs` (a few seconds each on a loaded machine).
describe('a data folder another user could have planted', { timeout: 120_000 }, () => {
  it('is refused by serve, stdio and the CLI when another user owns it, even as root', async () => {
    const dir = await place();
    await plant(dir, { mode: 0o700, uid: OTHER_UID });

    const cli = await refusal(['keys', 'list', '--data-dir', dir]);
    const served = await startServe(['--data-dir', dir]).then(
      () => '',
      (error: Error) => error.message,
    );
    const desktop = await stdioRefusal(dir);

    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`The data folder ${dir} belongs to uid ${OTHER_UID}, not to you (uid 0)`);
    expect(cli.stderr).toContain(`chown -R 0 "${dir}"`);
    expect(served).toContain(`The data folder ${dir} belongs to uid ${OTHER_UID}`);
    expect(desktop).toContain(`The data folder ${dir} belongs to uid ${OTHER_UID}`);
    await untouched(dir);
  });

  it('is refused when other users may write it (mode 777), even when the running user owns it', async () => {
    const dir = await place();
    await plant(dir, { mode: 0o777 });

    const cli = await refusal(['keys', 'list', '--data-dir', dir]);
    const desktop = await stdioRefusal(dir);

    expect(cli.stderr).toContain(`The data folder ${dir} is writable by other users (mode 0777)`);
    expect(cli.stderr).toContain(`chmod -R go-w "${dir}"`);
    expect(desktop).toContain('is writable by other users (mode 0777)');
    expect((await stat(dir)).mode & 0o777).toBe(0o777);
    await untouched(dir);
  });

  it('is refused when a store folder or the key file inside it belongs to another user', async () => {
    const dir = await place();
    await plant(dir, { mode: 0o700 });
    const store = join(dir, 'dynamodb');
    await mkdir(store, { mode: 0o700 });
    await chown(store, OTHER_UID, OTHER_UID);

    const storeRefused = await refusal(['keys', 'list', '--data-dir', dir]);
    await rm(store, { recursive: true });
    await chown(join(dir, 'master.key'), OTHER_UID, OTHER_UID);
    const keyRefused = await refusal(['keys', 'list', '--data-dir', dir]);

    expect(storeRefused.stderr).toContain(`${store} belongs to uid ${OTHER_UID}, not to you (uid 0)`);
    expect(keyRefused.stderr).toContain(`${join(dir, 'master.key')} belongs to uid ${OTHER_UID}`);
    await untouched(dir);
  });

  it('refuses a master key other users can read rather than tighten a key that may have leaked', async () => {
    const dir = await place();
    await plant(dir, { mode: 0o700 });
    const key = join(dir, 'master.key');
    await chmod(key, 0o644);

    const refused = await refusal(['keys', 'list', '--data-dir', dir]);

    expect(refused.stderr).toContain(`The key file ${key} is readable by other users (mode 0644)`);
    expect(refused.stderr).toContain(`chmod 600 "${key}"`);
    expect((await stat(key)).mode & 0o777).toBe(0o644);
  });

  it('still starts on a private folder, and on one an older version left readable by others', async () => {
    const fresh = await place('fresh');
    const older = await place('older');
    await mkdir(older, { mode: 0o755 });
    await chmod(older, 0o755);

    const created = await meridian(['keys', 'create', '--label', 'k', '--data-dir', fresh]);
    const listed = await meridian(['keys', 'list', '--data-dir', fresh]);
    await meridian(['keys', 'list', '--data-dir', older]);

    expect(created.stdout).toMatch(/mrd_\S+/);
    expect(listed.stdout).toContain('k');
    expect((await stat(fresh)).mode & 0o777).toBe(0o700);
    expect((await stat(join(fresh, 'master.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(older)).mode & 0o777).toBe(0o700);
  });
});
