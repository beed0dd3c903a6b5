import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { type ClientEra, okTool } from '../support/mcp-client.js';
import { callEveryToolset } from './toolset-calls.js';

/** A protocol era a client may speak to Meridian, and what the connection must report. */
export interface EraCase {
  label: string;
  era: ClientEra;
  version: string;
  sdkEra: 'legacy' | 'modern';
}

/** The eras one deployment serves: 2026-07-28 without initialize, and the two 2025 handshakes. */
export const ERAS: readonly EraCase[] = [
  { label: '2026-07-28 (stateless, no initialize)', era: 'modern', version: '2026-07-28', sdkEra: 'modern' },
  { label: '2025-11-25 (initialize)', era: 'legacy', version: '2025-11-25', sdkEra: 'legacy' },
  {
    label: '2025-06-18 (initialize)',
    era: { legacy: ['2025-06-18'] },
    version: '2025-06-18',
    sdkEra: 'legacy',
  },
];

/**
 * Uses everything a connection can: a tool of every toolset (TOOLSET_CALLS), a resource, a prompt
 * and a completion, asserting each answer. `tag` keeps the names this run creates apart from
 * another era's on the same store.
 *
 * @example
 * await useEveryCapability(client, 'modern');
 */
export async function useEveryCapability(client: Client, tag: string): Promise<void> {
  const { project_id } = await callEveryToolset((tool, args) => okTool(client, tool, args), tag);

  const [projects] = (await client.readResource({ uri: 'timesheet://projects' })).contents;
  expect(projects).toMatchObject({
    mimeType: 'application/json',
    text: expect.stringContaining(project_id!),
  });

  const { messages } = await client.getPrompt({ name: 'weekly-timesheet', arguments: { week: '2026-W48' } });
  expect(messages[0]?.content).toMatchObject({ text: expect.stringContaining('2026-W48') });

  const { completion } = await client.complete({
    ref: { type: 'ref/prompt', name: 'write-rule' },
    argument: { name: 'project', value: `Era ${tag}`.slice(0, 5) },
  });
  expect(completion.values).toContain(`Era ${tag}`);
}
