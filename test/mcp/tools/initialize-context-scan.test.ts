import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_SCAN_LIMITS } from '../../../lambdas/adapters/files/node-project-folder.js';
import { okTool, type ToolOutput } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime } from '../../support/test-runtime.js';

/**
 * initialize_context's full scan of a folder larger than its limits, through the SDK's real Client
 * over HTTP: what it keeps is what a reader of the project needs first, not whatever sorts first.
 */
describe('initialize_context, full scan of a folder over the file limit', () => {
  let served: ServedRuntime;
  let agent: Client;
  let folder: string;
  let scan: ToolOutput;

  const found = async (query: string) =>
    (
      (await okTool(agent, 'search_context', { project_id: scan.project_id, query, format: 'json' }))
        .results as { item_id: string }[]
    ).map((hit) => hit.item_id);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'meridian-big-repo-'));
    await writeFile(join(folder, 'README.md'), '# Harbor\nHarbor tracks zanzibar shipments.\n');
    await writeFile(join(folder, 'package.json'), '{"name":"harbor","main":"src/index.ts"}');
    await mkdir(join(folder, 'src'));
    await writeFile(join(folder, 'src', 'index.ts'), 'export const quokkaPort = 8080;\n');
    await mkdir(join(folder, 'docs'));
    await writeFile(join(folder, 'docs', 'guide.md'), 'Deploy with the narwhal pipeline.\n');
    // More files than a full scan takes, in a folder that sorts before all the others.
    await mkdir(join(folder, 'aaa-fixtures', 'cases'), { recursive: true });
    for (let i = 0; i < FOLDER_SCAN_LIMITS.files.full + 20; i += 1) {
      await writeFile(
        join(folder, 'aaa-fixtures', 'cases', `case-${String(i).padStart(3, '0')}.txt`),
        `case ${i}\n`,
      );
    }
    served = await serveRuntime(await startTestRuntime({ scanFolders: [folder] }));
    agent = (await served.connect('agent')).client;

    scan = await okTool(agent, 'initialize_context', { project_path: folder, mode: 'full' });
  });

  afterAll(async () => {
    await served?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('keeps the README, the entry point and the shallow docs, and says it stopped at the limit', async () => {
    expect(scan).toMatchObject({ files_scanned: FOLDER_SCAN_LIMITS.files.full, scan: 'folder' });
    expect(scan.message).toContain('stopped at the size limit');
    expect(await found('zanzibar shipments')).toContain('file:README.md');
    expect(await found('quokkaPort')).toContain('file:src/index.ts');
    expect(await found('narwhal pipeline')).toContain('file:docs/guide.md');
  });
});
