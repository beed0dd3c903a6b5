import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ToolOutput } from './mcp-client.js';

const run = promisify(execFile);

const PACKAGE = 'node_modules/@modelcontextprotocol/inspector';
/** The CLI itself: the package's `mcp-inspector` bin is a launcher that would start it as one more process. */
const CLI = `${PACKAGE}/clients/cli/build/index.js`;
/** Where the Inspector reaches Meridian: `meridian serve`'s URL with a key, or the stdio command. */
export type InspectorTarget =
  | { url: string; token: string }
  | { command: string; args: string[]; env: Record<string, string> };

/** What one Inspector run asks: a method and its arguments. */
export type InspectorRequest =
  | { method: 'tools/call'; tool: string; args: Record<string, unknown> }
  | { method: 'resources/read'; uri: string }
  | { method: 'prompts/get'; prompt: string; args: Record<string, string> }
  | { method: 'tools/list'; strict?: boolean };

export interface InspectorCli {
  /** Runs the Inspector CLI once (it takes one method per run) and returns its JSON `result`. */
  request(request: InspectorRequest): Promise<ToolOutput>;
  /** A tool call's structuredContent; throws with the tool's error text on an isError result. */
  callTool(tool: string, args: Record<string, unknown>): Promise<ToolOutput>;
  close(): Promise<void>;
}

function targetArgs(target: InspectorTarget): string[] {
  // A refused key must fail the run, not start an OAuth sign-in that waits for a browser.
  if ('url' in target)
    return [target.url, '--header', `Authorization: Bearer ${target.token}`, '--stored-auth-only'];
  return [
    target.command,
    ...target.args,
    ...Object.entries(target.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
  ];
}

function methodArgs(request: InspectorRequest): string[] {
  switch (request.method) {
    case 'tools/call':
      return ['--tool-name', request.tool, '--tool-args-json', JSON.stringify(request.args)];
    case 'resources/read':
      return ['--uri', request.uri];
    case 'prompts/get':
      return [
        '--prompt-name',
        request.prompt,
        '--prompt-args',
        ...Object.entries(request.args).map(([k, v]) => `${k}=${v}`),
      ];
    case 'tools/list':
      return request.strict ? ['--strict'] : [];
  }
}

/**
 * The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned in package.json) as a user runs
 * it against Meridian, speaking `era` (`legacy`: the 2025 initialize handshake; `modern`:
 * 2026-07-28). It gets a HOME of its own: it keeps a catalogue and OAuth state there.
 *
 * @example
 * const inspector = await startInspector({ url, token }, 'modern');
 * (await inspector.callTool('compute_duration', { start, end })).total_seconds;
 */
export async function startInspector(
  target: InspectorTarget,
  era: 'legacy' | 'modern',
): Promise<InspectorCli> {
  // The Node running the suite: 22 or newer (the Inspector declares >=22.19), which the test's needs(NODE_22) asks.
  const node = process.execPath;
  const home = await mkdtemp(join(tmpdir(), 'meridian-inspector-'));
  const request = async (request: InspectorRequest) => {
    const argv = [
      // The real path: the CLI runs only when it is the main module, which it does not count itself
      // as when reached through a symlinked node_modules (as in a git worktree).
      await realpath(CLI),
      ...targetArgs(target),
      '--protocol-era',
      era,
      '--method',
      request.method,
      ...methodArgs(request),
      '--format',
      'json',
      '--quiet',
      // Its default of 15 s is short for a stdio server starting on a loaded CI machine.
      '--connect-timeout',
      '120000',
    ];
    const { stdout } = await run(node, argv, {
      env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json') },
      timeout: 180_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`inspector ${request.method} failed: ${error.stderr || error.stdout || error.message}`);
    });
    return (JSON.parse(stdout) as { result: ToolOutput }).result;
  };
  return {
    request,
    async callTool(tool, args) {
      const result = await request({ method: 'tools/call', tool, args });
      if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as ToolOutput;
    },
    close: () => rm(home, { recursive: true, force: true }),
  };
}
