import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynalite } from '../../lambdas/adapters/dynamodb/dynalite-server.js';
import { DynamoDbDocumentStore } from '../../lambdas/adapters/dynamodb/dynamodb-document-store.js';
import { createLocalDynamoDbClient, ensureTable } from '../../lambdas/adapters/dynamodb/local-dynamodb.js';
import {
  EncryptionSdkEnvelope,
  rawAesKeyring,
} from '../../lambdas/adapters/encryption/encryption-sdk-envelope.js';
import { FileBlobStore } from '../../lambdas/adapters/files/file-blob-store.js';
import { resolveListedFolders } from '../../lambdas/adapters/files/host-folder-locator.js';
import { NodeProjectFolderReader } from '../../lambdas/adapters/files/node-project-folder.js';
import { LocalBookingWorkflow } from '../../lambdas/adapters/workflow/local-booking-workflow.js';
import {
  type BlobStore,
  type Clock,
  type ProjectFolderReader,
  type RandomSource,
  systemClock,
} from '../../lambdas/core/ports/index.js';
import { composeDeps, type Platform } from '../../lambdas/runtime/compose.js';
import { nodeRandom } from '../../lambdas/runtime/node-random.js';
import { withAllTools } from '../../lambdas/runtime/with-all-tools.js';

export const TEST_TABLE = 'meridian-test';

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The real object graph (composeDeps: every part of the wiring table) on a fresh in-memory dynalite, for tests above the adapter
 * level: tools, HTTP, handlers. Pass `endpoint` to share a running DynamoDB (e.g. DynamoDB Local).
 * Booking runs booking.asl.json locally (as embedded) with retry pauses of 0; pass `booking` to
 * wrap or replace the steps (fault injection), `lockTtlSeconds` for another hold lifetime.
 * Memory blobs go to files in a fresh temporary folder (as embedded) unless `memoryBlobs` is
 * given; project folders are readable (as embedded: by the local owner anywhere, by API keys inside
 * `scanFolders`, as `serve --scan-folder` lists them) unless `projectFolders` is null (as on AWS);
 * search embeds with the local embedder unless `embedder` is given, and ids come from `random`
 * (default: Node's CSPRNG).
 */
export async function startTestRuntime(
  options: {
    clock?: Clock;
    defaultTimezone?: string;
    endpoint?: string;
    tableName?: string;
    factories?: Platform['factories'];
    booking?: Platform['booking'];
    lockTtlSeconds?: number;
    memoryBlobs?: BlobStore;
    projectFolders?: ProjectFolderReader | null;
    scanFolders?: readonly string[];
    memorySync?: Platform['memorySync'];
    embedder?: Platform['embedder'];
    random?: RandomSource;
    /** Records one project's memory may hold (MERIDIAN_MEMORY_MAX_ITEMS). */
    memoryItemsCap?: number;
    /** Another runtime's (`runtime.encryption`), to read what it encrypted on a shared table. */
    encryption?: Platform['encryption'];
  } = {},
) {
  const blobDir = options.memoryBlobs ? undefined : await mkdtemp(join(tmpdir(), 'meridian-blobs-'));
  const memoryBlobs = options.memoryBlobs ?? new FileBlobStore(blobDir!);
  const projectFolders =
    options.projectFolders === null
      ? undefined
      : (options.projectFolders ??
        new NodeProjectFolderReader(await resolveListedFolders(options.scanFolders ?? [], 'scanFolders')));
  const dynalite = options.endpoint ? undefined : await startDynalite();
  const endpoint = options.endpoint ?? dynalite!.endpoint;
  const client = createLocalDynamoDbClient(endpoint);
  const tableName = options.tableName ?? `${TEST_TABLE}-${randomBytes(4).toString('hex')}`;
  await ensureTable(client, tableName);
  const deps = await composeDeps({
    store: new DynamoDbDocumentStore({ client, tableName }),
    encryption:
      options.encryption ?? new EncryptionSdkEnvelope(rawAesKeyring(new Uint8Array(randomBytes(32)))),
    clock: options.clock ?? systemClock,
    random: options.random ?? nodeRandom,
    logger: silentLogger,
    version: 'test',
    defaultTimezone: options.defaultTimezone,
    factories: options.factories ?? {},
    booking: options.booking ?? ((steps) => new LocalBookingWorkflow({ steps, retryDelayMs: 0 })),
    ...(options.lockTtlSeconds === undefined ? {} : { lockTtlSeconds: options.lockTtlSeconds }),
    ...(options.memoryItemsCap === undefined ? {} : { memoryItemsCap: options.memoryItemsCap }),
    memoryBlobs,
    ...(projectFolders ? { projectFolders } : {}),
    ...(options.memorySync ? { memorySync: options.memorySync } : {}),
    ...(options.embedder ? { embedder: options.embedder } : {}),
  });
  return withAllTools({
    ...deps,
    endpoint,
    tableName,
    /** A new API key's token; `toolsets` sets its default toolsets. */
    async newKey(
      label = 'test',
      options: { toolsets?: string[] } = {},
    ): Promise<{ token: string; keyId: string }> {
      const key = await deps.access.createKey(label, options);
      return { token: key.token, keyId: key.key_id };
    },
    memoryBlobs,
    async close() {
      client.destroy();
      await dynalite?.close();
      if (blobDir) await rm(blobDir, { recursive: true, force: true });
    },
  });
}

export type TestRuntime = Awaited<ReturnType<typeof startTestRuntime>>;
