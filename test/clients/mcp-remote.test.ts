import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { meridian, meridianWithInput, startServe } from '../support/cli.js';
import { launchChromium } from '../support/headless-chromium.js';
import { callTool, errorOf, newClient, okTool } from '../support/mcp-client.js';
import { startStdio } from '../support/stdio-process.js';
import { CHROMIUM, needs } from '../support/system-parts.js';

/**
 * A desktop client that only starts stdio servers (Claude Desktop, Cursor) reaching a remote
 * `meridian serve` through `mcp-remote` (pinned in package.json), the bridge docs/connectors.md
 * recommends: it registers itself (DCR), sends the person to the sign-in with PKCE and the
 * `resource` parameter, takes the code on a loopback port, keeps the tokens in its own folder and
 * refreshes them. The test is the desktop client (the SDK's Client over the bridge's stdio) and the
 * person (headless Chromium on the URL the bridge prints).
 */

const BRIDGE = 'node_modules/mcp-remote/dist/proxy.js';
const PASSWORD = 'a long enough secret';

let dataDir: string;
let configDir: string;
let serve: Awaited<ReturnType<typeof startServe>>;
let chromium: { browser: Browser; close(): Promise<void> };
let work: string;

const parts = needs(CHROMIUM);

beforeAll(async () => {
  if (parts.skip) return;
  dataDir = await mkdtemp(join(tmpdir(), 'meridian-mcp-remote-'));
  configDir = await mkdtemp(join(tmpdir(), 'meridian-mcp-remote-auth-'));
  [serve, chromium] = await Promise.all([startServe(['--data-dir', dataDir]), launchChromium()]);
  const owner = await startStdio(dataDir);
  work = (await okTool(owner.client, 'create_calendar', { summary: 'Work' })).calendar.id;
  await owner.close();
  expect((await meridianWithInput(['users', 'add', 'alice', '--data-dir', dataDir], PASSWORD)).code).toBe(0);
  await meridian(['users', 'grant', 'alice', work, 'write', '--data-dir', dataDir]);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await serve?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

/**
 * Starts the bridge as a desktop client would (`npx mcp-remote <url>`), its token folder in the
 * test's temp dir. It opens the browser with the `open` package, whose xdg-open runs $BROWSER when
 * no desktop is detected: `true` here, and the transport passes on no desktop variable (DISPLAY,
 * XDG_CURRENT_DESKTOP, …: only HOME, PATH, SHELL, TERM, USER, LOGNAME), so no real browser opens.
 */
function bridge() {
  const env: Record<string, string> = {
    HOME: configDir,
    MCP_REMOTE_CONFIG_DIR: configDir,
    BROWSER: 'true',
  };
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRIDGE, serve.url],
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const authorizationUrl = new Promise<URL>((resolve) => {
    transport.stderr?.on('data', () => {
      const match = /Please authorize this client by visiting:\s+(\S+)/.exec(stderr.join(''));
      if (match) resolve(new URL(match[1]!));
    });
  });
  return { transport, stderr, authorizationUrl };
}

/** The person at the browser: signs in, consents Work read-only (alice may write it), approves. */
async function signInAndConsent(url: URL) {
  const page = await chromium.browser.newPage();
  try {
    await page.goto(url.href);
    await page.fill('input[autocomplete="username"]', 'alice');
    await page.fill('input[autocomplete="current-password"]', PASSWORD);
    await page.click('button[name="sign_in"]');
    await page.selectOption(`select[name="grant:${work}"]`, 'read');
    await page.click('button[name="approve"]');
    await page.waitForURL(/\/oauth\/callback\?/);
    return await page.textContent('body');
  } finally {
    await page.close();
  }
}

/** What the bridge keeps in its folder: `mcp-remote-v1/<hash>_tokens.json`. */
async function storedTokens() {
  const folder = join(configDir, 'mcp-remote-v1');
  const name = (await readdir(folder)).find((file) => file.endsWith('_tokens.json'));
  if (!name) throw new Error(`no tokens in ${folder}`);
  const path = join(folder, name);
  return { path, tokens: JSON.parse(await readFile(path, 'utf8')) };
}

async function expectConsentedRights(client: Client) {
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  expect(tools).toEqual(expect.arrayContaining(['get_temporal_context', 'list_calendars', 'create_event']));
  const calendars = (await okTool(client, 'list_calendars', {})).calendars.map((c: { id: string }) => c.id);
  expect(calendars).toEqual([work]);
  const write = await callTool(client, 'create_event', {
    calendar_id: work,
    summary: 'Standup',
    start: '2030-01-07T09:00:00Z',
    end: '2030-01-07T09:15:00Z',
  });
  expect(errorOf(write).code).toBe('FORBIDDEN');
}

describe('mcp-remote as the stdio bridge of a desktop client', parts, () => {
  it('signs the person in through the browser once, then works within the consent', async () => {
    const { transport, stderr, authorizationUrl } = bridge();
    onTestFailed(() => console.error(stderr.join('')));
    const client = newClient('legacy', 'desktop-client');
    // The bridge answers initialize only once it has a token: the sign-in happens meanwhile.
    const connected = client.connect(transport, { timeout: 120_000 });
    try {
      const url = await authorizationUrl;
      expect(url.origin).toBe(new URL(serve.url).origin);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('resource')).toBe(serve.url);
      expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/localhost:\d+\/oauth\/callback$/);

      expect(await signInAndConsent(url)).toContain('Authorization successful');
      await connected;

      await expectConsentedRights(client);
      expect((await storedTokens()).tokens.refresh_token).toBeTruthy();
      // What `meridian sessions list` shows, and `sessions revoke` takes, to sign the bridge out.
      const sessions = (await meridian(['sessions', 'list', '--user', 'alice', '--data-dir', dataDir]))
        .stdout;
      const clientId = url.searchParams.get('client_id');
      expect(sessions).toMatch(
        new RegExp(`^\\S+ {2}alice {2}${clientId} {2}toolsets \\S+ {2}${work}=read {2}`, 'm'),
      );
    } finally {
      await client.close();
    }
  }, 180_000);

  it('at the next start, after the access token expired, refreshes it without a browser', async () => {
    // As five minutes later: the bridge decides by the expiry it stored, refreshing ahead of it.
    const before = await storedTokens();
    await writeFile(before.path, JSON.stringify({ ...before.tokens, expires_at: Date.now() - 1000 }));
    const { transport, stderr } = bridge();
    onTestFailed(() => console.error(stderr.join('')));
    const client = newClient('legacy', 'desktop-client');
    try {
      await client.connect(transport, { timeout: 60_000 });

      await expectConsentedRights(client);
      const after = (await storedTokens()).tokens;
      expect(after.access_token).not.toBe(before.tokens.access_token);
      expect(after.refresh_token).not.toBe(before.tokens.refresh_token);
      expect(stderr.join('')).not.toContain('Please authorize');
    } finally {
      await client.close();
    }
  }, 120_000);
});
