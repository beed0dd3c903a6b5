import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { BODY_THRESHOLD_BYTES } from '../../lambdas/core/memory/store/memory-bodies.js';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../../lambdas/runtime/embedded.js';

/** The embedded runtime's memory wiring: blobs under the private data dir, folders readable. */
describe('project memory in the embedded runtime', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-embedded-memory-'));
    runtime = await createEmbeddedRuntime({ dataDir, host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps a large body as an owner-only file under <dataDir>/blobs', async () => {
    const project = await runtime.rules.projects.create({ name: 'Embedded' });
    const branch = await runtime.memory.createBranch(LOCAL_OWNER, project.project_id, { topic: 'Blobs' });
    const body = 'A long design note. '.repeat(Math.ceil((BODY_THRESHOLD_BYTES * 2) / 20));

    await runtime.memory.updateMemory(LOCAL_OWNER, project.project_id, {
      branch_id: branch.branch_id,
      role: 'assistant',
      content: body,
    });

    const folder = join(dataDir, 'blobs', 'projects', project.project_id, 'memory');
    const [file] = await readdir(folder);
    expect(file).toBeDefined();
    expect((await stat(join(folder, file!))).mode & 0o077).toBe(0);
    const view = await runtime.memory.memory.branchView(project.project_id, branch.branch_id);
    expect(view.entries[0]?.content).toBe(body);
  });

  it('reads the checked-out branch of a git worktree (.git is a file naming the git dir)', async () => {
    const repo = join(dataDir, 'repo');
    await mkdir(join(repo, 'gitdirs', 'wt'), { recursive: true });
    await writeFile(join(repo, 'gitdirs', 'wt', 'HEAD'), 'ref: refs/heads/feature/worktree\n');
    await writeFile(join(repo, '.git'), 'gitdir: gitdirs/wt\n');

    const folders = runtime.memory.deps.folders!;
    const located = await folders.locate(repo, 'anywhere');

    expect(located.status).toBe('found');
    expect(located.status === 'found' && (await folders.gitHead(located.folder))).toBe('feature/worktree');
  });
});
