import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, errorOf } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime } from '../../support/test-runtime.js';

/**
 * ADR 0011: outside the listed folders a path is only a name, nothing is looked up on the disk.
 * A checkout in a listed folder may hold a symbolic link that leads out of it (git stores
 * symlinks). Through it a remote key must learn nothing of the host: a path past the link is
 * refused the same way whether it exists out there or not, and nothing past the link is looked
 * at (host-folder-locator.ts resolves one component at a time).
 */
describe('initialize_context: a remote key learns nothing of the host outside the listed folders', () => {
  let base: string;
  let served: ServedRuntime;
  let agent: Client;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'meridian-oracle-'));
    const listed = join(base, 'checkouts');
    await mkdir(join(listed, 'repo'), { recursive: true });
    await writeFile(join(listed, 'repo', 'README.md'), '# repo\n');
    // Outside the listed folder: the owner's files.
    await mkdir(join(base, 'owner', '.ssh'), { recursive: true });
    await writeFile(join(base, 'owner', '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
    // A link in a checkout that leads out (as a cloned repository may carry one).
    await symlink(join(base, 'owner'), join(listed, 'repo', 'up'));
    const runtime = await startTestRuntime({ scanFolders: [listed] });
    served = await serveRuntime(runtime);
    agent = (await served.connect('remote', { toolsets: ['memory'] })).client;
  });

  afterAll(async () => {
    await served?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  const answerFor = async (path: string) => {
    const result = await callTool(agent, 'initialize_context', { project_path: path, mode: 'light' });
    return { isError: result.isError, code: errorOf(result).code };
  };

  it('answers a path outside that exists exactly as one that does not', async () => {
    const link = join(base, 'checkouts', 'repo', 'up');

    const existing = await answerFor(join(link, '.ssh', 'id_ed25519'));
    const missing = await answerFor(join(link, '.ssh', 'id_rsa'));

    expect(existing.isError).toBe(true);
    expect(missing.isError).toBe(true);
    expect(existing.code).toBe(missing.code);
    // Both are refused as leading out through the link: nothing past it was looked at.
    expect(existing.code).toBe('FORBIDDEN');
  });
});
