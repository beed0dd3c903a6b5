import type { ItemKey } from '../../ports/index.js';
import { GSI1PK, MEMORY_RECORD, PK_PREFIX, SK } from '../../storage/key-prefixes.js';

/**
 * Where a project's memory lives in the table (docs/data-model.md, "Entities (project memory)"):
 * one partition per project, holding the generation pointer and every record of every
 * generation, each under `G#<generation>#<record key>`.
 */

/** The generation a project has before anything was ever restored into it. */
export const INITIAL_GENERATION = 'g0';

export const memoryPartition = (projectId: string) => `${PK_PREFIX.memory}${projectId}`;

export const pointerKey = (projectId: string): ItemKey => ({
  pk: memoryPartition(projectId),
  sk: SK.memory.pointer,
});

/** The project whose memory partition `pk` is. */
export const projectOfPartition = (pk: string) => pk.slice(PK_PREFIX.memory.length);

/**
 * What puts a pointer in the idle-compression index: sorted by its `updated_at`, so the sweep
 * reads only projects whose last write is old enough (see GSI1PK.idleMemory).
 */
export const idleIndexAttributes = (updatedAt: string) => ({
  gsi1pk: GSI1PK.idleMemory,
  gsi1sk: updatedAt,
});

export const folderKey = (projectId: string): ItemKey => ({
  pk: memoryPartition(projectId),
  sk: SK.memory.folder,
});

/** The `sk` prefix of every record of one generation. */
export const generationPrefix = (generation: string) => `${SK.memory.generationPrefix}${generation}#`;

/** The marker that `generation` is to be dropped unless current (generation-drops.ts). */
export const dropMarkerKey = (projectId: string, generation: string): ItemKey => ({
  pk: memoryPartition(projectId),
  sk: `${SK.memory.dropPrefix}${generation}`,
});

/** The generation a drop marker's `sk` names. */
export const generationOfDropMarker = (sk: string) => sk.slice(SK.memory.dropPrefix.length);

/** The table key of a record (its key inside the generation). */
export const recordItemKey = (projectId: string, generation: string, recordKey: string): ItemKey => ({
  pk: memoryPartition(projectId),
  sk: `${generationPrefix(generation)}${recordKey}`,
});

export const branchRecord = (branchId: string) => `${MEMORY_RECORD.branchPrefix}${branchId}`;
export const branchEntriesPrefix = (branchId: string) => `${MEMORY_RECORD.entryPrefix}${branchId}#`;
export const entryRecord = (branchId: string, entryId: string) =>
  `${branchEntriesPrefix(branchId)}${entryId}`;
export const contextRecord = (branchId: string) => `${MEMORY_RECORD.contextPrefix}${branchId}`;
export const fileRecord = (path: string) => `${MEMORY_RECORD.filePrefix}${path}`;
export const gitLinkRecord = (gitBranch: string) => `${MEMORY_RECORD.gitLinkPrefix}${gitBranch}`;

/** The path-lookup row: the caller's project for a folder path (hash of principal and path, project-for-path.ts). */
export const projectPathKey = (pathHash: string): ItemKey => ({
  pk: `${PK_PREFIX.memoryPath}${pathHash}`,
  sk: SK.memoryPath.project,
});
