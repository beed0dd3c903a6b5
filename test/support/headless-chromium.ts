import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); playwright-core downloads no browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for tests (a fresh profile each launch), with the flags this machine needs:
 * no background networking, since the network is closed and Chromium would otherwise fail on
 * Google's hosts at every start. `extraArgs` adds flags (e.g. `--host-resolver-rules`).
 */
export async function launchChromium(
  extraArgs: string[] = [],
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return { browser, close: () => browser.close() };
}
