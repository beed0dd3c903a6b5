import { mkdir } from 'node:fs/promises';
import { systemClock } from '../core/ports.js';
import type { McpDeps } from '../mcp/deps.js';
import type { EmbeddedConfig } from './config.js';
import { createStderrLogger } from './stderr-logger.js';
import { VERSION } from './version.js';

/**
 * Composition root of the embedded runtime (`npm start`, `meridian serve|stdio`): everything
 * runs in this process, state lives under the data dir.
 */
export async function createEmbeddedDeps(config: EmbeddedConfig): Promise<McpDeps> {
  // Owner-only: later issues keep API key hashes and encrypted credentials here.
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  return {
    clock: systemClock,
    defaultTimezone: config.timezone,
    logger: createStderrLogger(),
    version: VERSION,
  };
}
