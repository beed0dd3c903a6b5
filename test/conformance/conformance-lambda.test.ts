/**
 * The conformance lines of conformance.test.ts against the MCP Lambda handler as `cdk deploy`
 * ships it (bundled by lib/constructs/lambda-bundling.ts), served over HTTP by a bridge that turns
 * each request into the REST proxy event API Gateway delivers, adding the API key the suite cannot
 * send.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_ENTRY_NAME, lambdaEsbuildOptions } from '../../lib/constructs/lambda-bundling.js';
import { MCP_HANDLER_ENTRY } from '../../lib/constructs/mcp-function.js';
import { lambdaHandlerTarget } from '../handlers/lambda-target.js';
import type { HttpTarget } from '../mcp/http-transport-suite.js';
import { NODE_22, needs } from '../support/system-parts.js';
import { LINE_2025, LINE_2026, runScenario } from './suite-lines.js';

/** An HTTP server on 127.0.0.1 that hands each request to the target as API Gateway would. */
async function startBridge(target: HttpTarget, authorization: string) {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = { authorization };
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && name !== 'authorization')
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
    const answer = await target.send(incoming.method ?? 'GET', incoming.url ?? '/', { headers, body });
    outgoing.writeHead(answer.status, answer.headers);
    outgoing.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `dns-rebinding-protection` is for servers on localhost: it expects a localhost Origin to be
 * answered and a foreign one refused. The Lambda is served on API Gateway's public host, never on
 * localhost, and answers only the browser origins of MERIDIAN_ALLOWED_ORIGINS (http-transport-suite:
 * "refuses a foreign Origin with 403"), so it refuses the suite's localhost Origin too.
 */
const NOT_FOR_A_PUBLIC_HOST = new Set(['dns-rebinding-protection']);

describe('MCP conformance suite against the bundled Lambda handler', needs(NODE_22), () => {
  const outDir = mkdtempSync(join(tmpdir(), 'meridian-conformance-bundle-'));
  let target: HttpTarget;
  let bridge: Awaited<ReturnType<typeof startBridge>>;

  beforeAll(async () => {
    await build(lambdaEsbuildOptions(MCP_HANDLER_ENTRY, outDir));
    const entry = pathToFileURL(join(outDir, `${LAMBDA_ENTRY_NAME}.mjs`)).href;
    target = await lambdaHandlerTarget(() => import(/* @vite-ignore */ entry));
    const { token } = await target.newKey();
    bridge = await startBridge(target, `Bearer ${token}`);
  }, 60_000);

  afterAll(async () => {
    await bridge?.close();
    await target?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  describe.each([LINE_2025, LINE_2026])('$label', (line) => {
    it.each(line.scenarios.filter((scenario) => !NOT_FOR_A_PUBLIC_HOST.has(scenario)))(
      'passes %s, or fails it only as its expected-failures file says',
      async (scenario) => {
        const result = await runScenario(line, `${bridge.url}/mcp`, scenario);

        expect(result, result.output).toEqual({ code: 0, output: '' });
      },
      60_000,
    );
  });
});
