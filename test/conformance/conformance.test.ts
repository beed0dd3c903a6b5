import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthProxy } from '../support/auth-proxy.js';
import { meridian, startServe } from '../support/cli.js';
import { NODE_22, needs } from '../support/system-parts.js';
import { LINE_2025, LINE_2026, runScenario, scenariosListedAsFailing } from './suite-lines.js';

/** `meridian serve` as a user runs it, behind a proxy that adds the API key the suite cannot send. */
describe('MCP conformance suite against meridian serve', needs(NODE_22), () => {
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

  describe.each([LINE_2025, LINE_2026])('$label', (line) => {
    it('lists as expected failures only scenarios it runs', async () => {
      expect(line.scenarios).toEqual(expect.arrayContaining(await scenariosListedAsFailing(line)));
    });

    it.each(line.scenarios)(
      'passes %s, or fails it only as its expected-failures file says',
      async (scenario) => {
        const result = await runScenario(line, `${proxy.url}/mcp`, scenario);

        expect(result, result.output).toEqual({ code: 0, output: '' });
      },
      60_000,
    );
  });
});
