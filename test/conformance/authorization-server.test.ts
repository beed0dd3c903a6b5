import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridianWithInput, startServe } from '../support/cli.js';
import { launchChromium } from '../support/headless-chromium.js';
import { registerClient } from '../support/oauth-http-flow.js';
import { CHROMIUM, NODE_22, needs } from '../support/system-parts.js';
import { LINE_2026 } from './suite-lines.js';

/** One check of a scenario, as the suite saves it in checks.json. */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
}

const ALICE = { name: 'alice', password: 'correct horse battery staple' };

/** A loopback port free right now, for the suite's callback server. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * `conformance authorization` (the suite's 0.2 line) against `url`: every authorization-server
 * scenario in order (the metadata endpoint, then the authorization-code grant, which reads the
 * metadata the first found). When the suite prints the authorization URL for a person to open,
 * `signIn` completes it; resolves with the exit code and everything printed.
 */
function runAuthorizationSuite(
  args: string[],
  signIn: (authorizationUrl: string) => Promise<void>,
): Promise<{ code: number | null; output: string; signedIn: Promise<void> | undefined }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [LINE_2026.suite, 'authorization', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let output = '';
    let signedIn: Promise<void> | undefined;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /^(https?:\/\/\S+\?\S*response_type=code\S*)$/m.exec(output)?.[1];
      if (url && !signedIn) {
        signedIn = signIn(url);
        // A sign-in that fails must not leave the suite waiting minutes for its callback.
        signedIn.catch(() => child.kill());
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', reject);
    child.once('exit', (code) => resolveRun({ code, output, signedIn }));
  });
}

/*
 * The conformance suite's own authorization-server scenarios against the authorization server of
 * `meridian serve` as a user runs it: a person added with the CLI, a native client registered
 * (DCR) for the suite's loopback callback, and the sign-in and consent pages completed by headless
 * Chromium when the suite asks a person to open the authorization URL.
 */
describe('conformance authorization against meridian serve', needs(NODE_22, CHROMIUM), () => {
  let dataDir: string;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let base: string;
  let chromium: { browser: Browser; close(): Promise<void> };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'meridian-conformance-as-'));
    const added = await meridianWithInput(
      ['users', 'add', ALICE.name, '--data-dir', dataDir],
      `${ALICE.password}\n`,
    );
    if (added.code !== 0) throw new Error(`users add failed: ${added.stderr}`);
    [serve, chromium] = await Promise.all([startServe(['--data-dir', dataDir]), launchChromium()]);
    base = new URL(serve.url).origin;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await serve?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The person at the browser: signs in and approves what the client asked. */
  async function signInAndApprove(authorizationUrl: string) {
    const page = await chromium.browser.newPage();
    try {
      await page.goto(authorizationUrl);
      await page.fill('input[autocomplete="username"]', ALICE.name);
      await page.fill('input[autocomplete="current-password"]', ALICE.password);
      await page.click('button[name="sign_in"]');
      await page.click('button[name="approve"]');
      await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    } finally {
      await page.close();
    }
  }

  it('passes the metadata endpoint and the authorization-code grant scenarios', async () => {
    const port = await freePort();
    const registered = await registerClient(base, {
      client_name: 'MCP conformance suite',
      application_type: 'native',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
    });
    const { client_id } = (await registered.json()) as { client_id: string };

    const run = await runAuthorizationSuite(
      [
        '--url',
        base,
        '--client-id',
        client_id,
        '--resource',
        `${base}/mcp`,
        '--port',
        String(port),
        '--output-dir',
        join(dataDir, 'conformance'),
      ],
      signInAndApprove,
    );
    await run.signedIn;

    expect(run.code, run.output).toBe(0);
    // Each scenario's checks, as the suite saved them: every one passed, none only warned.
    const saved = [...run.output.matchAll(/^Results saved to (.+)$/gm)].map((m) =>
      join(m[1]!, 'checks.json'),
    );
    const checks = (
      await Promise.all(saved.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as Check[]))
    ).flat();
    expect(Object.fromEntries(checks.map((check) => [check.id, check.status])), run.output).toEqual({
      'authorization-server-metadata': 'SUCCESS',
      'authorization-server-metadata-cimd': 'SUCCESS',
      'authorization-code-grant': 'SUCCESS',
    });
  }, 120_000);
});
