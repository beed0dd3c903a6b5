import type {
  BlobStore,
  Clock,
  Compressor,
  DocumentStore,
  EnvelopeEncryption,
  RandomSource,
} from '../../ports/index.js';
import type { MemoryStateStore } from '../store/memory-records.js';

/** What snapshots and restores need: the memory, where its blobs and snapshots live, the catalog. */
export interface SnapshotDeps {
  state: MemoryStateStore;
  /** The memory's blob store: bodies the records reference, and the encrypted snapshots. */
  blobs: BlobStore;
  /** The deployment's data key (KMS on AWS, the raw AES master key locally). */
  encryption: EnvelopeEncryption;
  /** gzip: what snapshots are packed with under the encryption, and compressed contexts with (MemoryStore's). */
  compressor: Compressor;
  /** The table the snapshot catalog lives in. */
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
}
