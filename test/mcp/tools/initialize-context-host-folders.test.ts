import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, errorOf, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * Folders on the server's machine belong to its owner (issue 18, finding 2): over HTTP, an API key
 * with no grant names a path, and nothing on the host is read unless the administrator listed a
 * folder that holds it — not a home folder, not through a symbolic link, not .git/HEAD.
 */
describe('initialize_context over HTTP: a remote caller never reads the host', () => {
  let base: string;
  let home: string;
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;

  const projectNames = async () => (await runtime.rules.projects.list()).map((p) => p.name);

  /** Every text the project's memory would give back to the caller, joined. */
  const storedText = async (projectId: string) =>
    (await runtime.memory.memory.items(projectId))
      .map((item) => `${item.path ?? ''} ${item.text}`)
      .join('\n');

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'meridian-host-'));
    // A home folder that looks like a project root: a README beside the owner's documents.
    home = join(base, 'home', 'ann');
    await mkdir(join(home, 'Documents'), { recursive: true });
    await writeFile(join(home, 'README.md'), '# Ann\n');
    await writeFile(join(home, 'Documents', 'tax.txt'), 'Taxable income: 91,000 kumquats\n');
    // A checkout elsewhere on the host, reached through a symbolic link in the middle of a path.
    await mkdir(join(base, 'elsewhere', 'shop', '.git'), { recursive: true });
    await writeFile(join(base, 'elsewhere', 'shop', 'package.json'), '{"name":"shop-secret-pangolin"}');
    await writeFile(join(base, 'elsewhere', 'shop', '.git', 'HEAD'), 'ref: refs/heads/host-secret-branch\n');
    await symlink(join(base, 'elsewhere'), join(base, 'home', 'link'));
    runtime = await startTestRuntime();
    served = await serveRuntime(runtime);
    // No grant at all; the URL picks the memory toolset over the key's default.
    agent = (await served.connect('stranger', { toolsets: ['memory'] })).client;
  });

  afterAll(async () => {
    await served?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('reads nothing of a home folder named by path: the path only names the project', async () => {
    const init = await okTool(agent, 'initialize_context', { project_path: home, mode: 'full' });

    expect(init).toMatchObject({ scan: 'unavailable', files_scanned: 0 });
    expect(init.message).toContain('files: [{path, content}]');
    const graph = await okTool(agent, 'get_context_graph_info', { project_id: init.project_id });
    expect(JSON.stringify(graph)).not.toContain('tax.txt');
    const found = await okTool(agent, 'search_context', {
      project_id: init.project_id,
      query: 'taxable income kumquats',
      format: 'json',
    });
    expect(JSON.stringify(found)).not.toContain('kumquats');
    expect(await storedText(init.project_id)).not.toContain('kumquats');
  });

  it('does not follow a symbolic link in the middle of the path', async () => {
    const init = await okTool(agent, 'initialize_context', {
      project_path: join(base, 'home', 'link', 'shop'),
      mode: 'full',
    });

    expect(init).toMatchObject({ scan: 'unavailable', files_scanned: 0 });
    expect(await storedText(init.project_id)).not.toContain('pangolin');
  });

  it('reads no .git/HEAD on the host for link_git_branch or get_active_summary', async () => {
    const init = await okTool(agent, 'initialize_context', {
      project_path: join(base, 'elsewhere', 'shop'),
      mode: 'none',
    });
    const { branch_id } = await okTool(agent, 'create_branch', {
      project_id: init.project_id,
      branch_topic: 'Checkout',
    });

    const linked = await okTool(agent, 'link_git_branch', {
      project_id: init.project_id,
      cortex_branch_id: branch_id,
      git_branch_name: 'main',
    });
    const summary = await callTool(agent, 'get_active_summary', { project_id: init.project_id });

    expect(linked).toMatchObject({ linked: true, auto_switch: false });
    expect(JSON.stringify(linked)).not.toContain('host-secret-branch');
    // The folder's current git branch is never read for a remote caller: with no branch named,
    // the answer is the branch written to last, and says so.
    expect(summary.isError).toBeFalsy();
    expect(summary.structuredContent).toMatchObject({ branch_id, resolved_from: 'most_recent' });
    expect(JSON.stringify(summary)).not.toContain('host-secret-branch');
  });

  it('makes two projects of two folders with the same base name', async () => {
    const first = await okTool(agent, 'initialize_context', { project_path: '/home/ann/.ssh', mode: 'none' });
    const second = await okTool(agent, 'initialize_context', {
      project_path: '/home/bob/.ssh',
      mode: 'none',
    });
    const again = await okTool(agent, 'initialize_context', {
      project_path: '/home/ann/.ssh/',
      mode: 'none',
    });

    expect(second.project_id).not.toBe(first.project_id);
    expect(second.project_created).toBe(true);
    expect(again).toMatchObject({ project_id: first.project_id, project_created: false });
    expect((await projectNames()).filter((name) => name === '.ssh')).toHaveLength(2);
  });
});

describe('initialize_context over HTTP: a folder the administrator lists', () => {
  let base: string;
  let listed: string;
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let agent: Client;

  const projectCount = async () => (await runtime.rules.projects.list()).length;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'meridian-listed-'));
    listed = join(base, 'checkouts');
    await mkdir(join(listed, 'api', '.git'), { recursive: true });
    await writeFile(join(listed, 'api', 'README.md'), '# API\nThe api speaks walrus.\n');
    await writeFile(join(listed, 'api', '.git', 'HEAD'), 'ref: refs/heads/feature/walrus\n');
    await writeFile(join(base, 'secret.txt'), 'the vault code is 7-marmot-7\n');
    // A symlink inside the listed project to a file outside it: never read.
    await symlink(join(base, 'secret.txt'), join(listed, 'api', 'notes.md'));
    // A folder outside the listed one, reached through a symlink inside it.
    await mkdir(join(base, 'private', 'vault'), { recursive: true });
    await writeFile(join(base, 'private', 'vault', 'README.md'), 'the vault code is 7-marmot-7\n');
    await symlink(join(base, 'private'), join(listed, 'escape'));
    // A listed project whose .git names a git dir outside the listed folder.
    await mkdir(join(listed, 'worktree'));
    await writeFile(join(listed, 'worktree', 'README.md'), '# Worktree\n');
    await mkdir(join(base, 'private', 'gitdir'));
    await writeFile(join(base, 'private', 'gitdir', 'HEAD'), 'ref: refs/heads/outside-branch\n');
    await writeFile(join(listed, 'worktree', '.git'), `gitdir: ${join(base, 'private', 'gitdir')}\n`);
    runtime = await startTestRuntime({ scanFolders: [listed] });
    served = await serveRuntime(runtime);
    agent = (await served.connect('agent', { toolsets: ['memory'] })).client;
  });

  afterAll(async () => {
    await served?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('scans a project under it for a remote key, without the symlink to a file outside', async () => {
    const init = await okTool(agent, 'initialize_context', {
      project_path: join(listed, 'api'),
      mode: 'full',
    });

    expect(init).toMatchObject({ scan: 'folder', files_scanned: 1 });
    const text = (await runtime.memory.memory.items(init.project_id)).map((i) => i.text).join('\n');
    expect(text).toContain('walrus');
    expect(text).not.toContain('marmot');
    const { branch_id } = await okTool(agent, 'create_branch', {
      project_id: init.project_id,
      branch_topic: 'W',
    });
    const linked = await okTool(agent, 'link_git_branch', {
      project_id: init.project_id,
      cortex_branch_id: branch_id,
      git_branch_name: 'feature/walrus',
    });
    expect(linked).toMatchObject({ auto_switch: true, current_git_branch: 'feature/walrus' });
  });

  it('refuses a path that leaves it through a symbolic link, and creates nothing', async () => {
    const before = await projectCount();

    const result = await callTool(agent, 'initialize_context', {
      project_path: join(listed, 'escape', 'vault'),
      mode: 'full',
    });

    expect(errorOf(result)).toMatchObject({ code: 'FORBIDDEN' });
    expect(errorOf(result).message).toContain('files: [{path, content}]');
    expect(JSON.stringify(result)).not.toContain('marmot');
    expect(await projectCount()).toBe(before);
  });

  it('reads no HEAD from a git dir outside it', async () => {
    const init = await okTool(agent, 'initialize_context', {
      project_path: join(listed, 'worktree'),
      mode: 'light',
    });
    const { branch_id } = await okTool(agent, 'create_branch', {
      project_id: init.project_id,
      branch_topic: 'W',
    });

    const linked = await okTool(agent, 'link_git_branch', {
      project_id: init.project_id,
      cortex_branch_id: branch_id,
      git_branch_name: 'main',
    });

    expect(linked).toMatchObject({ auto_switch: false });
    expect(JSON.stringify(linked)).not.toContain('outside-branch');
  });

  it('creates nothing when the folder under it cannot be scanned', async () => {
    const before = await projectCount();

    const missing = await callTool(agent, 'initialize_context', {
      project_path: join(listed, 'not-there'),
      mode: 'light',
    });

    expect(errorOf(missing)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(errorOf(missing).message).toContain('mode');
    expect(await projectCount()).toBe(before);
    const again = await callTool(agent, 'initialize_context', {
      project_path: join(listed, 'not-there'),
      mode: 'none',
    });
    expect(again.isError).toBeFalsy();
  });
});
