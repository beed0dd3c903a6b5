import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, structuredOf } from '../support/mcp-client.js';
import { type StdioProcess, startStdio } from '../support/stdio-process.js';

/**
 * The local owner (meridian stdio) reads folders on its own machine anywhere, and a project is
 * the folder's whole path, not its last segment (issue 18, finding 2).
 */
describe('meridian stdio: the local owner scans project folders', () => {
  let base: string;
  let stdio: StdioProcess;

  const projects = async () =>
    structuredOf<{ projects: { name: string }[] }>(await stdio.call('list_projects', { format: 'json' }))
      .projects;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'meridian-owner-folders-'));
    for (const user of ['ann', 'bob']) {
      await mkdir(join(base, user, '.ssh'), { recursive: true });
      await writeFile(join(base, user, '.ssh', 'README.md'), `# ${user}'s keys: ${user}-okapi\n`);
    }
    await mkdir(join(base, 'plain'));
    await writeFile(join(base, 'plain', 'notes.txt'), 'not a project\n');
    await mkdir(join(base, 'real', 'shop'), { recursive: true });
    await writeFile(join(base, 'real', 'shop', 'package.json'), '{"name":"shop"}');
    await symlink(join(base, 'real'), join(base, 'via'));
    stdio = await startStdio(join(base, 'data'));
  }, 60_000);

  afterAll(async () => {
    await stdio?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('makes two projects of two folders with the same base name, each with its own files', async () => {
    const ann = structuredOf(
      await stdio.call('initialize_context', { project_path: join(base, 'ann', '.ssh'), mode: 'full' }),
    );
    const bob = structuredOf(
      await stdio.call('initialize_context', { project_path: join(base, 'bob', '.ssh'), mode: 'full' }),
    );
    const annAgain = structuredOf(
      await stdio.call('initialize_context', { project_path: `${join(base, 'ann', '.ssh')}/`, mode: 'none' }),
    );

    expect(ann).toMatchObject({ scan: 'folder', files_scanned: 1, project_created: true });
    expect(bob).toMatchObject({ scan: 'folder', files_scanned: 1, project_created: true });
    expect(bob.project_id).not.toBe(ann.project_id);
    expect(annAgain).toMatchObject({ project_id: ann.project_id, project_created: false });
    const found = structuredOf(
      await stdio.call('search_context', { project_id: bob.project_id, query: 'okapi keys', format: 'json' }),
    );
    expect(JSON.stringify(found)).toContain('bob-okapi');
    expect(JSON.stringify(found)).not.toContain('ann-okapi');
  });

  it('follows its own symbolic links', async () => {
    const shop = structuredOf(
      await stdio.call('initialize_context', { project_path: join(base, 'via', 'shop'), mode: 'light' }),
    );

    expect(shop).toMatchObject({ scan: 'folder', files_scanned: 1 });
  });

  it('creates nothing when the folder cannot be scanned, and says how to go on', async () => {
    const before = (await projects()).length;

    const plain = await stdio.call('initialize_context', {
      project_path: join(base, 'plain'),
      mode: 'light',
    });
    const missing = await stdio.call('initialize_context', {
      project_path: join(base, 'gone'),
      mode: 'full',
    });

    expect(errorOf(plain)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(errorOf(plain).message).toContain('mode "none"');
    expect(errorOf(missing)).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await projects()).length).toBe(before);
  });
});
