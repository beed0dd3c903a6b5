/**
 * Every interface core/ needs from the outside world, in one place: adapters (lambdas/adapters)
 * implement them, composition roots (lambdas/runtime) wire them, and core/ depends on nothing
 * else. One file per port; import them from this index.
 */

export * from './audit-archive.js';
export * from './blob-store.js';
export * from './booking-workflow.js';
export * from './calendar-provider.js';
export * from './clock.js';
export * from './cloud-target.js';
export * from './compressor.js';
export * from './document-store.js';
export * from './embedder.js';
export * from './envelope-encryption.js';
export * from './logger.js';
export * from './metrics.js';
export * from './project-folder-reader.js';
export * from './provider-resolver.js';
export * from './random-source.js';
export * from './shadow-calendar.js';
export * from './sync-sources.js';
export * from './time-deps.js';
export * from './token-verifier.js';
