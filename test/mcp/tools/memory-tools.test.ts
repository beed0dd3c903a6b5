import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { type CallToolResult, connectHttpClient, errorOf } from '../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

type Structured = Record<string, unknown>;

/** A served runtime and a client per key, over HTTP with the SDK's real Client. */
async function serve(runtime: TestRuntime) {
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    handle: (request) => routeHttpRequest(request, runtime),
    logger: runtime.logger,
  });
  const clients: Client[] = [];
  return {
    server,
    async client(label: string) {
      const key = await runtime.newKey(label);
      const client = await connectHttpClient(`${server.url}/mcp`, undefined, {
        authorization: `Bearer ${key.token}`,
      });
      clients.push(client);
      return { client, keyId: key.keyId };
    },
    async close() {
      for (const client of clients) await client.close();
      await server.close();
    },
  };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Structured;
}

describe('memory tools over HTTP (embedded runtime: the folder is listed for remote callers)', () => {
  let runtime: TestRuntime;
  let served: Awaited<ReturnType<typeof serve>>;
  let folder: string;
  let owner: Client;
  let stranger: Client;
  let reader: Client;
  let projectId: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'meridian-shop-'));
    // The keys are remote callers: the folder is read for them because the administrator lists it.
    runtime = await startTestRuntime({ scanFolders: [folder] });
    served = await serve(runtime);
    await writeFile(join(folder, 'package.json'), '{"name":"shop","main":"src/index.ts"}');
    await writeFile(
      join(folder, 'README.md'),
      '# Shop\nDeploy with AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY1 set.\n',
    );
    await writeFile(join(folder, '.gitignore'), 'dist/\n*.log\n');
    await writeFile(join(folder, '.env'), 'DB_PASSWORD=hunter2\n');
    await mkdir(join(folder, 'src'));
    await writeFile(join(folder, 'src', 'index.ts'), 'export const answer = 42;\n');
    await writeFile(join(folder, 'src', 'helper.ts'), 'export const helper = 1;\n');
    await writeFile(join(folder, 'debug.log'), 'noise');
    await mkdir(join(folder, 'dist'));
    await writeFile(join(folder, 'dist', 'index.js'), 'compiled');
    await mkdir(join(folder, '.git'));
    await writeFile(join(folder, '.git', 'HEAD'), 'ref: refs/heads/feature/checkout\n');
    ({ client: owner } = await served.client('owner'));
    ({ client: stranger } = await served.client('stranger'));
    const readKey = await served.client('reader');
    reader = readKey.client;
    const init = await ok(owner, 'initialize_context', { project_path: folder, mode: 'full' });
    projectId = init.project_id as string;
    await runtime.access.setGrant(readKey.keyId, { kind: 'project', id: projectId }, 'read');
  });

  afterAll(async () => {
    await served.close();
    await runtime.close();
    await rm(folder, { recursive: true, force: true });
  });

  describe('initialize_context', () => {
    it('scans the folder honouring .gitignore, skips dot-files and redacts secrets', async () => {
      const again = await ok(owner, 'initialize_context', { project_path: `${folder}/`, mode: 'full' });

      expect(again).toMatchObject({ project_id: projectId, project_created: false, scan: 'folder' });
      // package.json, README.md, src/index.ts, src/helper.ts — not dist/, *.log, .env, .gitignore
      expect(again.files_scanned).toBe(4);
      expect(again.secrets_redacted).toBe(1);
      const items = await runtime.memory.memory.items(projectId);
      const paths = items.filter((i) => i.kind === 'file').map((i) => i.path);
      expect(paths.sort()).toEqual(['README.md', 'package.json', 'src/helper.ts', 'src/index.ts']);
      const readme = items.find((i) => i.path === 'README.md')!;
      expect(readme.text).toContain('[REDACTED:');
      expect(readme.text).not.toContain('wJalrXUtnFEMI');
    });

    it('reads only the README, entry points and config in light mode', async () => {
      const light = await ok(owner, 'initialize_context', { project_path: folder, mode: 'light' });

      expect(light.files_scanned).toBe(3); // package.json, README.md, src/index.ts
    });

    it('gives a key without a grant its own project rather than the owner one', async () => {
      const theirs = await ok(stranger, 'initialize_context', { project_path: folder, mode: 'none' });

      expect(theirs.project_id).not.toBe(projectId);
      expect(theirs).toMatchObject({ project_created: true, scan: 'skipped', files_scanned: 0 });
    });

    it('refuses a path that climbs out of the project in files', async () => {
      const result = await call(owner, 'initialize_context', {
        project_path: folder,
        mode: 'none',
        files: [{ path: '../etc/passwd', content: 'x' }],
      });

      expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT' });
      expect(JSON.stringify(errorOf(result))).toContain('files.0.path');
    });
  });

  describe('branches and entries', () => {
    let branchId: string;

    beforeAll(async () => {
      branchId = (await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'Checkout flow' }))
        .branch_id as string;
    });

    it('creates a verified branch that list_branches shows', async () => {
      const child = await ok(owner, 'create_branch', {
        project_id: projectId,
        branch_topic: 'Payment retries',
        parent_branch: branchId,
      });
      const listed = await ok(reader, 'list_branches', { project_id: projectId, format: 'json' });

      expect(branchId).toMatch(/^checkout_flow_\d{8}_\d{6}_[0-9a-f]{4}$/);
      expect(child).toMatchObject({ verified: true, parent_branch: branchId });
      const ids = (listed.branches as { branch_id: string }[]).map((b) => b.branch_id);
      expect(ids).toEqual(expect.arrayContaining([branchId, child.branch_id]));
    });

    it('lists branches a page at a time, oldest first, with the total and a cursor', async () => {
      const { project_id } = await ok(owner, 'initialize_context', {
        project_path: '/nowhere/many',
        mode: 'none',
      });
      const made: string[] = [];
      for (let i = 0; i < 23; i += 1)
        made.push(
          (await ok(owner, 'create_branch', { project_id, branch_topic: `Topic ${i}` })).branch_id as string,
        );
      const ids = (page: Structured) => (page.branches as { branch_id: string }[]).map((b) => b.branch_id);

      const first = await ok(owner, 'list_branches', { project_id, format: 'json' });
      const rest = await ok(owner, 'list_branches', {
        project_id,
        cursor: first.next_cursor,
        format: 'json',
      });

      expect(first).toMatchObject({ total_branches: 23, next_cursor: ids(first)[19] });
      expect(rest.next_cursor).toBeUndefined();
      expect(new Set([...ids(first), ...ids(rest)])).toEqual(new Set(made));
      expect(ids(first)).toHaveLength(20);
    });

    it('redacts a secret split by an invisible character, and stores the text without it', async () => {
      const { branch_id } = await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'Keys' });

      const saved = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id,
        role: 'assistant',
        content: 'Rotated the CI key AKIA\u200BIOSFODNN7EXAMPLE.',
      });

      expect(saved).toMatchObject({ secrets_redacted: 1 });
      const context = await ok(owner, 'load_context', { project_id: projectId, branch_id });
      expect(context.content).toContain('Rotated the CI key [REDACTED:aws-access-key-id].');
      expect(context.content).not.toContain('IOSFODNN7EXAMPLE');
    });

    it('appends with a category and version 1, and replaces only at the version read', async () => {
      const saved = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        role: 'assistant',
        content:
          'Fixed the crash when the cart is empty. Token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rotated.',
      });
      expect(saved).toMatchObject({ version: 1, ontology_category: 'bug_fix', secrets_redacted: 1 });

      const stale = await call(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        role: 'assistant',
        content: 'Fixed the crash when the cart is empty (v2).',
        entry_id: saved.entry_id,
        if_version: 2,
      });
      expect(errorOf(stale)).toMatchObject({ code: 'CONFLICT' });

      const replaced = await ok(owner, 'update_memory', {
        project_id: projectId,
        branch_id: branchId,
        role: 'assistant',
        content: 'Decided to keep empty carts server-side.',
        entry_id: saved.entry_id,
        if_version: 1,
      });
      expect(replaced).toMatchObject({ entry_id: saved.entry_id, version: 2, ontology_category: 'decision' });
    });

    it('keeps all 20 of 20 concurrent update_memory calls on one branch', async () => {
      const branch = (await ok(owner, 'create_branch', { project_id: projectId, branch_topic: 'Busy' }))
        .branch_id as string;

      const saved = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ok(owner, 'update_memory', {
            project_id: projectId,
            branch_id: branch,
            role: 'user',
            content: `Note ${i}`,
          }),
        ),
      );

      const loaded = await ok(owner, 'load_context', { project_id: projectId, branch_id: branch });
      expect(new Set(saved.map((s) => s.entry_id)).size).toBe(20);
      expect(loaded.metadata).toMatchObject({ message_count: 20 });
      for (let i = 0; i < 20; i += 1) expect(loaded.content).toContain(`[user] Note ${i}`);
    });

    it('summarises the branch with its latest messages, never showing a redacted secret', async () => {
      const summary = await ok(reader, 'get_active_summary', { project_id: projectId, branch_id: branchId });

      expect(summary).toMatchObject({
        branch_topic: 'Checkout flow',
        status: 'active',
        resolved_from: 'branch_id',
      });
      expect(summary.message_count).toBe(1);
      expect(summary.content).toContain('Decided to keep empty carts server-side.');
      expect(summary.summary).toContain('Checkout flow');
    });

    it('loads the whole context', async () => {
      const loaded = await ok(owner, 'load_context', { project_id: projectId, branch_id: branchId });

      expect(loaded).toMatchObject({ context_id: `ctx_${branchId}`, content_truncated: false });
      expect(loaded.metadata).toMatchObject({ compressed: false, message_count: 1 });
    });

    it('links a git branch and resolves it, and follows .git/HEAD when no branch is named', async () => {
      const linked = await ok(owner, 'link_git_branch', {
        project_id: projectId,
        cortex_branch_id: branchId,
        git_branch_name: 'feature/checkout',
      });
      expect(linked).toMatchObject({
        linked: true,
        auto_switch: true,
        current_git_branch: 'feature/checkout',
      });

      const byName = await ok(reader, 'get_active_summary', {
        project_id: projectId,
        git_branch: 'feature/checkout',
      });
      const byHead = await ok(reader, 'get_active_summary', { project_id: projectId });

      expect(byName).toMatchObject({ branch_id: branchId, resolved_from: 'git_branch' });
      expect(byHead).toMatchObject({
        branch_id: branchId,
        resolved_from: 'git_head',
        git_branch: 'feature/checkout',
      });
    });

    it('answers BRANCH_NOT_FOUND and PROJECT_NOT_FOUND with what to call', async () => {
      const noBranch = await call(owner, 'update_memory', {
        project_id: projectId,
        branch_id: 'nope',
        role: 'user',
        content: 'x',
      });
      const noGit = await call(owner, 'get_active_summary', { project_id: projectId, git_branch: 'main' });
      const noProject = await call(owner, 'list_branches', { project_id: 'prj_missing' });

      expect(errorOf(noBranch)).toMatchObject({ code: 'BRANCH_NOT_FOUND' });
      expect(errorOf(noGit).message).toContain('link_git_branch');
      // The local owner passes every grant; a key is refused first (see below).
      expect(errorOf(noProject).code).toMatch(/FORBIDDEN|PROJECT_NOT_FOUND/);
    });

    it('refuses every memory tool to a key without a grant, and writes to a read-only key', async () => {
      const reads: [string, Record<string, unknown>][] = [
        ['list_branches', { project_id: projectId }],
        ['get_active_summary', { project_id: projectId, branch_id: branchId }],
        ['load_context', { project_id: projectId, branch_id: branchId }],
      ];
      const writes: [string, Record<string, unknown>][] = [
        ['create_branch', { project_id: projectId, branch_topic: 'Hijack' }],
        ['update_memory', { project_id: projectId, branch_id: branchId, role: 'user', content: 'Hijacked' }],
        ['link_git_branch', { project_id: projectId, cortex_branch_id: branchId, git_branch_name: 'evil' }],
      ];
      for (const [name, args] of [...reads, ...writes]) {
        expect({ name, code: errorOf(await call(stranger, name, args)).code }).toEqual({
          name,
          code: 'FORBIDDEN',
        });
      }
      for (const [name, args] of writes) {
        expect({ name, code: errorOf(await call(reader, name, args)).code }).toEqual({
          name,
          code: 'FORBIDDEN',
        });
      }
      const summary = await ok(reader, 'get_active_summary', { project_id: projectId, branch_id: branchId });
      expect(summary.content).not.toContain('Hijacked');
      for (const [name, args] of reads) await ok(reader, name, args);
    });

    it('applies a grant changed between two requests of one client (grants are read per request)', async () => {
      const { client, keyId } = await served.client('changing');
      const project = { kind: 'project' as const, id: projectId };
      const append = (content: string) =>
        call(client, 'update_memory', { project_id: projectId, branch_id: branchId, role: 'user', content });
      await runtime.access.setGrant(keyId, project, 'write');

      const granted = await append('Written while granted');
      await runtime.access.setGrant(keyId, project, 'read');
      const lowered = await append('Written after the grant was lowered');
      await runtime.access.setGrant(keyId, project, 'write');
      const restored = await append('Written after the grant was restored');

      expect(granted.isError).toBeFalsy();
      expect(errorOf(lowered).code).toBe('FORBIDDEN');
      expect(restored.isError).toBeFalsy();
      const context = await ok(owner, 'load_context', { project_id: projectId, branch_id: branchId });
      expect(JSON.stringify(context)).not.toContain('Written after the grant was lowered');
      expect(JSON.stringify(context)).toContain('Written after the grant was restored');
    });
  });
});

describe('memory tools over HTTP (AWS-like runtime: no folder access)', () => {
  let runtime: TestRuntime;
  let served: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    served = await serve(runtime);
  });

  afterAll(async () => {
    await served.close();
    await runtime.close();
  });

  it('says the folder could not be read and stores the files the agent sent', async () => {
    const { client } = await served.client('remote');

    const init = await ok(client, 'initialize_context', {
      project_path: '/Users/ann/shop',
      mode: 'full',
      files: [{ path: 'src/db.ts', content: 'const url = "postgres://app:s3cr3t-pw@db:5432/app";' }],
    });

    expect(init).toMatchObject({
      project_name: 'shop',
      project_created: true,
      scan: 'unavailable',
      files_scanned: 0,
      files_from_agent: 1,
      secrets_redacted: 1,
    });
    expect(init.message).toContain('cannot read your disk');
    const items = await runtime.memory.memory.items(init.project_id as string);
    expect(items.map((i) => i.text).join()).not.toContain('s3cr3t-pw');
  });

  it('grants the project it creates to the creating key, and finds it again by path', async () => {
    const { client, keyId } = await served.client('creator');
    const first = await ok(client, 'initialize_context', { project_path: '/srv/api', mode: 'none' });
    const second = await ok(client, 'initialize_context', { project_path: '/srv/api', mode: 'none' });

    expect(second).toMatchObject({ project_id: first.project_id, project_created: false });
    const grants = await runtime.access.grantsOf(keyId);
    expect(grants).toContainEqual({ resource: { kind: 'project', id: first.project_id }, right: 'write' });
  });
});
