import { join } from 'node:path';
import { EncryptionSdkEnvelope, rawAesKeyring } from '../adapters/encryption/encryption-sdk-envelope.js';
import { loadOrCreateKeyFile } from '../adapters/encryption/local-key-file.js';
import { FileBlobStore } from '../adapters/files/file-blob-store.js';
import { resolveListedFolders } from '../adapters/files/host-folder-locator.js';
import { NodeProjectFolderReader } from '../adapters/files/node-project-folder.js';
import { LocalBookingWorkflow } from '../adapters/workflow/local-booking-workflow.js';
import { systemClock } from '../core/ports/index.js';
import { ensureSchemaVersion } from '../core/storage/schema-version.js';
import type { McpHttpDeps } from '../mcp/deps.js';
import { type ComposedDeps, composeDeps } from './compose.js';
import { type RequestGuards, requestGuards } from './compose-guards.js';
import type { EmbeddedConfig } from './config.js';
import { openEmbeddedStore } from './embedded-store.js';
import { embedderFrom } from './embedder-config.js';
import { type Environment, parseEnvironment } from './environment.js';
import { SCAN_FOLDERS_ENV } from './environment-names.js';
import { memorySyncFrom } from './memory-sync-config.js';
import { nodeRandom } from './node-random.js';
import { makeDataDirPrivate } from './private-data-dir.js';
import { providerFactories } from './provider-factories.js';
import { createStderrLogger } from './stderr-logger.js';
import { VERSION } from './version.js';
import { withAllTools } from './with-all-tools.js';

/** The object graph, the settings it was built from, and its release: what the CLI's commands run against. */
export type EmbeddedRuntime = ComposedDeps &
  RequestGuards & { environment: Environment; close(): Promise<void> };

/**
 * Composition root of the embedded runtime (`npm start`, `meridian serve|stdio|keys|…`):
 * everything runs in this process, state lives under the data dir (private to the user) — the
 * table in dynalite, served to every process on that folder over a Unix socket, the master key for
 * secrets in `master.key` (0600), project memory's blobs under `blobs/`, the booking workflow in
 * aws-local-stepfunctions. The graph comes from the wiring table (wiring.ts), every part built.
 */
export async function createEmbeddedRuntime(
  config: Omit<EmbeddedConfig, 'allowedOrigins' | 'scanFolders'> &
    Partial<Pick<EmbeddedConfig, 'scanFolders'>>,
  /** @default - no variable set */
  environment: Environment = parseEnvironment({}),
): Promise<EmbeddedRuntime & McpHttpDeps> {
  // Checked before anything opens: a listed folder that is not there stops the command.
  const listed = await resolveListedFolders(config.scanFolders ?? [], `--scan-folder/${SCAN_FOLDERS_ENV}`);
  await makeDataDirPrivate(config.dataDir);
  const key = await loadOrCreateKeyFile(join(config.dataDir, 'master.key'));
  const opened = await openEmbeddedStore(config.dataDir);
  const logger = createStderrLogger();
  // Before anything reads the table: an older folder is brought up to date, a newer one refused.
  const schema = await ensureSchemaVersion(opened.store, systemClock.now).catch(async (error: unknown) => {
    await opened.close();
    throw error;
  });
  if (schema.applied.length > 0) {
    logger.info(`Upgraded the data folder from schema version ${schema.found} to ${schema.version}`, {
      dataDir: config.dataDir,
      applied: schema.applied,
    });
  }
  const memorySync = memorySyncFrom(environment.memorySync);
  const embedder = embedderFrom(environment.embeddings);
  const deps = await composeDeps({
    store: opened.store,
    encryption: new EncryptionSdkEnvelope(rawAesKeyring(key)),
    clock: systemClock,
    random: nodeRandom,
    logger,
    version: VERSION,
    defaultTimezone: config.timezone,
    factories: providerFactories({
      google: environment.google,
      outlook: environment.outlook,
      timezone: config.timezone,
    }),
    // book_slot runs booking.asl.json in this process, each task state on its step function.
    booking: (steps) => new LocalBookingWorkflow({ steps }),
    lockTtlSeconds: environment.lockTtlSeconds,
    ...(environment.memoryItemsCap === undefined ? {} : { memoryItemsCap: environment.memoryItemsCap }),
    // Project memory's blobs beside the table. Folders on this machine: the owner's anywhere,
    // remote callers' only inside the listed ones (core/memory/folders/host-folders.ts).
    memoryBlobs: new FileBlobStore(join(config.dataDir, 'blobs')),
    projectFolders: new NodeProjectFolderReader(listed),
    ...(memorySync ? { memorySync } : {}),
    ...(embedder ? { embedder } : {}),
  });
  return withAllTools({
    ...deps,
    ...requestGuards(deps, environment),
    environment,
    close: () => opened.close(),
  });
}
