import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridian, startServe } from '../support/cli.js';
import { connectHttpClient, okTool } from '../support/mcp-client.js';

/**
 * `meridian serve --scan-folder DIR`: the administrator's way to let API keys have project folders
 * on the server's machine read — inside DIR only.
 */
describe('meridian serve --scan-folder', { timeout: 90_000 }, () => {
  let base: string;
  let server: Awaited<ReturnType<typeof startServe>> | undefined;
  let agent: Client;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'meridian-serve-scan-'));
    for (const name of ['listed', 'unlisted']) {
      await mkdir(join(base, name, 'app'), { recursive: true });
      await writeFile(join(base, name, 'app', 'README.md'), `# ${name} app\n`);
    }
    const dataDir = join(base, 'data');
    const created = await meridian(['keys', 'create', '--label', 'agent', '--data-dir', dataDir]);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];
    server = await startServe(['--data-dir', dataDir, '--scan-folder', join(base, 'listed')]);
    agent = await connectHttpClient(`${server.url}?toolsets=memory`, undefined, {
      authorization: `Bearer ${token}`,
    });
  });

  afterAll(async () => {
    await agent?.close();
    await server?.stop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('reads a project inside the listed folder for an API key, and none outside it', async () => {
    const inside = await okTool(agent, 'initialize_context', { project_path: join(base, 'listed', 'app') });
    const outside = await okTool(agent, 'initialize_context', {
      project_path: join(base, 'unlisted', 'app'),
    });

    expect(inside).toMatchObject({ scan: 'folder', files_scanned: 1 });
    expect(outside).toMatchObject({ scan: 'unavailable', files_scanned: 0 });
  });

  it('refuses to start on a listed folder that does not exist, naming the option', async () => {
    const started = startServe(['--data-dir', join(base, 'other-data'), '--scan-folder', join(base, 'typo')]);

    await expect(started).rejects.toThrow(/--scan-folder.*typo.*not a folder/s);
  });
});
