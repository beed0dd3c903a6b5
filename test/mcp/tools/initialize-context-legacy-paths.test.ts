import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPathKey } from '../../../lambdas/core/memory/store/memory-keys.js';
import { sha256Hex } from '../../../lambdas/core/ports/index.js';
import { connectInMemory, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

/**
 * Path rows written before projects were found per principal (one row per path, for whichever
 * principal came first) still find their project after an upgrade — but the owner never adopts
 * a project a key made for the owner's path.
 */
describe('initialize_context and path rows of earlier versions', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let owner: Client;

  /** A row as earlier versions wrote it: the sha256 of the path alone. */
  const plantLegacyRow = (path: string, projectId: string) =>
    runtime.store.put({
      ...projectPathKey(sha256Hex(new TextEncoder().encode(path))),
      project_id: projectId,
    });

  beforeAll(async () => {
    runtime = await startTestRuntime({ projectFolders: null });
    served = await serveRuntime(runtime);
    owner = await connectInMemory(runtime);
  });

  afterAll(async () => {
    await owner?.close();
    await served?.close();
  });

  it("finds the owner's project from an earlier version's row, then by its own", async () => {
    const project = await runtime.rules.projects.create({ name: 'shop' });
    await plantLegacyRow('/srv/shop', project.project_id);

    const first = await okTool(owner, 'initialize_context', { project_path: '/srv/shop', mode: 'none' });
    const second = await okTool(owner, 'initialize_context', { project_path: '/srv/shop', mode: 'none' });

    expect(first).toMatchObject({ project_id: project.project_id, project_created: false });
    expect(second).toMatchObject({ project_id: project.project_id, project_created: false });
  });

  it("finds a key's project from such a row for that key, never for the owner", async () => {
    const { client: agent, keyId } = await served.connect('agent', { toolsets: ['memory'] });
    const theirs = await runtime.rules.projects.create({ name: 'claimed' });
    await runtime.access.setGrant(keyId, { kind: 'project', id: theirs.project_id }, 'write');
    await plantLegacyRow('/home/owner/claimed', theirs.project_id);

    const forKey = await okTool(agent, 'initialize_context', {
      project_path: '/home/owner/claimed',
      mode: 'none',
    });
    const forOwner = await okTool(owner, 'initialize_context', {
      project_path: '/home/owner/claimed',
      mode: 'none',
    });

    expect(forKey).toMatchObject({ project_id: theirs.project_id, project_created: false });
    expect(forOwner.project_id).not.toBe(theirs.project_id);
    expect(forOwner.project_created).toBe(true);
  });
});
