import { compareAndSet } from '../../compare-and-set.js';
import { DomainError, isDomainError } from '../../errors.js';
import { unionOfMarks, untrustedField } from '../../firewall/untrusted-marks.js';
import { type Compressor, type Condition, ConditionFailedError } from '../../ports/index.js';
import { MEMORY_RECORD } from '../../storage/key-prefixes.js';
import { queryAll } from '../../storage/query-all.js';
import { mergeEntries, summarizedEntries, unpackEntries } from '../contexts/context-body.js';
import { compressIfIdle, restoreContext } from '../contexts/context-compression.js';
import { categorize } from './categories.js';
import { blobKeysOf } from './memory-bodies.js';
import { MemoryGenerations, type MemoryStorageDeps, revisionToken } from './memory-generations.js';
import { entryItem, fileItem, summaryItem } from './memory-items.js';
import {
  branchEntriesPrefix,
  branchRecord,
  contextRecord,
  entryRecord,
  fileRecord,
  generationPrefix,
  gitLinkRecord,
  memoryPartition,
} from './memory-keys.js';
import type {
  ExpectedState,
  ExportedState,
  MemoryItem,
  MemoryReader,
  MemoryRecord,
  MemoryStateStore,
} from './memory-records.js';
import { Branch, ContextState, Entry, type EntryRole, GitLink, StoredFile } from './memory-schemas.js';

export { IDLE_COMPRESSION_MS } from '../contexts/context-compression.js';

export interface MemoryStoreDeps extends MemoryStorageDeps {
  compressor: Compressor;
  /** Records one project's memory may hold (MERIDIAN_MEMORY_MAX_ITEMS). @default DEFAULT_MEMORY_ITEMS_CAP */
  itemsCap?: number | undefined;
}

/**
 * Records one project's memory may hold: entries (each entry of a compressed context counted),
 * files, branches, git links and context rows. Every memory read (search, grounding, the graph,
 * suggestions, list_branches) reads the project whole, so this bounds them all (ADR 0008,
 * decision 11): 20,000 short entries keep a search index build near a second of CPU.
 */
export const DEFAULT_MEMORY_ITEMS_CAP = 20_000;

/** A branch with its context as a reader sees it: every entry, wherever it is kept. */
export interface BranchView {
  generation: string;
  branch: Branch;
  entries: Entry[];
  context: ContextState | undefined;
  /** Entries kept as rows of their own (the rest are in the compressed body). */
  rows: Entry[];
  /** Blobs the context row holds (its offloaded body). */
  contextBlobs: string[];
  /** ISO 8601: the latest entry written, restore, or the branch's creation. */
  last_updated: string;
  status: 'active' | 'compressed';
}

/** How many file records initialize_context writes at once (a full scan has up to 400). */
const FILE_WRITE_CONCURRENCY = 16;

/** Bounds the branch cache of a long-lived process. */
const MAX_KNOWN_BRANCHES = 10_000;

/** Ids tried for a new branch before a clash is a fault (each is 1 in 65,536 to clash). */
const BRANCH_ID_ATTEMPTS = 5;

const versionIs = (version: number): Condition => ({ op: 'eq', attribute: 'version', value: version });

/**
 * How many items stay in memory between calls, over all projects (the least recently read go
 * first): at a few hundred bytes of text each, tens of MB in a 1 GB function. A project with more
 * is read from the table on every call, as without the cache.
 */
const ITEMS_KEPT_AT_MOST = 50_000;

/**
 * A project's memory in the document store: branches, each with one context of entries appended
 * by conditional writes (a new key per entry, so concurrent writers never overwrite each other),
 * files from initialize_context, and git-branch links — all under the current generation (see
 * MemoryGenerations). Implements the readers' seam (memory-records.ts).
 */
export class MemoryStore implements MemoryReader, MemoryStateStore {
  /** The generation layer every record lives under; a restore switches it (memory-generations.ts). */
  readonly generations: MemoryGenerations;
  /** The generation this process last wrote an entry into, per project: spares a pointer read. */
  private readonly lastGeneration = new Map<string, string>();
  /**
   * Branches this process has seen, as `<project>/<generation>/<branch>`. A branch is never
   * deleted within a generation, so a hit spares the branch read; a restore changes the
   * generation, which the conditional revision write catches.
   */
  private readonly knownBranches = new Set<string>();
  /** The items of each project's last revision read, most recently used last (see {@link items}). */
  private readonly recentItems = new Map<string, KnownItems>();

  constructor(private readonly memoryDeps: MemoryStoreDeps) {
    this.generations = new MemoryGenerations(memoryDeps);
  }

  // The seams snapshots and readers use (MemoryStateStore, MemoryReader), answered by the
  // generation layer.
  revision(projectId: string): Promise<string> {
    return this.generations.revision(projectId);
  }
  currentState(projectId: string): Promise<Required<ExpectedState>> {
    return this.generations.currentState(projectId);
  }
  exportState(projectId: string): Promise<ExportedState> {
    return this.generations.exportState(projectId);
  }
  activateGeneration(projectId: string, generation: string, expected: ExpectedState): Promise<string> {
    return this.generations.activateGeneration(projectId, generation, expected);
  }
  discardGeneration(projectId: string, generation: string): Promise<void> {
    return this.generations.discardGeneration(projectId, generation);
  }

  async createBranch(
    projectId: string,
    input: { topic: string; untrusted?: string[] | undefined; parent_branch_id?: string },
  ): Promise<Branch> {
    const { generation } = await this.generations.pointer(projectId);
    await this.requireRoom(projectId, 1, 'branch');
    if (input.parent_branch_id !== undefined) {
      await this.requireBranchIn(projectId, generation, input.parent_branch_id, 'parent_branch');
    }
    // The id's random tail is short (four hex digits, as the reference writes ids): a branch of
    // the same topic made in the same second may already hold it, so try another tail.
    const branch = await compareAndSet(
      async () => {
        const candidate = Branch.parse({
          branch_id: this.branchId(input.topic),
          topic: input.topic,
          ...untrustedField(input.untrusted),
          ...(input.parent_branch_id === undefined ? {} : { parent_branch_id: input.parent_branch_id }),
          created_at: this.now(),
          version: 1,
        });
        await this.generations.putRecord(
          projectId,
          generation,
          branchRecord(candidate.branch_id),
          candidate,
          {
            op: 'not_exists',
          },
        );
        return candidate;
      },
      { maxAttempts: BRANCH_ID_ATTEMPTS },
    );
    // A branch is no item: the items kept for the state before it are the state after it.
    await this.touchKeeping(projectId, generation, (items) => items, 1);
    return branch;
  }

  /** Every branch of the project, oldest first. */
  async listBranches(projectId: string): Promise<Branch[]> {
    const { generation } = await this.generations.pointer(projectId);
    const rows = await this.generations.queryRecords(projectId, generation, MEMORY_RECORD.branchPrefix);
    return rows.map((row) => Branch.parse(row)).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** The branch in the current generation, or BRANCH_NOT_FOUND. */
  async requireBranch(projectId: string, branchId: string): Promise<{ generation: string; branch: Branch }> {
    const { generation } = await this.generations.pointer(projectId);
    return { generation, branch: await this.requireBranchIn(projectId, generation, branchId, 'branch_id') };
  }

  /** Links a git branch name to a memory branch (a name links one branch; relinking moves it). */
  async linkGitBranch(projectId: string, branchId: string, gitBranch: string): Promise<Branch> {
    const { generation, branch } = await this.requireBranch(projectId, branchId);
    // Relinking a name rewrites its record; a new name adds one.
    if (!(await this.generations.getRecord(projectId, generation, gitLinkRecord(gitBranch))))
      await this.requireRoom(projectId, 1, 'git branch link');
    const linked: Branch = { ...branch, git_branch: gitBranch, version: branch.version + 1 };
    try {
      await this.generations.putRecord(
        projectId,
        generation,
        branchRecord(branchId),
        linked,
        versionIs(branch.version),
      );
    } catch (error) {
      throw this.conflictOn(error, `branch "${branchId}"`);
    }
    const link: GitLink = { git_branch: gitBranch, branch_id: branchId, linked_at: this.now() };
    await this.generations.putRecord(projectId, generation, gitLinkRecord(gitBranch), link);
    await this.generations.touch(projectId, generation);
    return linked;
  }

  /** The memory branch a git branch name is linked to, if any. */
  async branchForGit(projectId: string, gitBranch: string): Promise<string | undefined> {
    const { generation } = await this.generations.pointer(projectId);
    const raw = await this.generations.getRecord(projectId, generation, gitLinkRecord(gitBranch));
    return raw ? GitLink.parse(raw).branch_id : undefined;
  }

  /**
   * Appends an entry to a branch's context. Each entry has a key of its own written with
   * `not_exists`, so concurrent appends on one branch all land.
   */
  async appendEntry(
    projectId: string,
    branchId: string,
    input: { role: EntryRole; content: string; untrusted?: string[] | undefined },
    /** A check that must pass before anything is written (a grant), run beside the reads. */
    authorized: Promise<unknown> = Promise.resolve(),
  ): Promise<Entry> {
    const cached = this.lastGeneration.get(projectId);
    // The count this process keeps for the generation it last wrote spares the pointer read: the
    // revision put below is conditional on the revision that count belongs to, so it lands only
    // if no other write came in between (else the count is checked afresh after the write).
    const kept = this.recentItems.get(projectId);
    const unread = cached !== undefined && kept?.state.generation === cached ? kept : undefined;
    // What the project holds is read beside the grant check, and judged only once it passed.
    const [{ generation, exists }, , known] = await Promise.all([
      this.findBranch(projectId, branchId, cached),
      authorized,
      unread ?? this.known(projectId),
    ]);
    if (!exists) throw branchNotFound(projectId, branchId, 'branch_id');
    this.requireRoomIn(projectId, known, 1, 'entry');
    const now = this.now();
    const entry = Entry.parse({
      entry_id: this.generations.timeOrderedId('e'),
      branch_id: branchId,
      role: input.role,
      category: categorize(input.content),
      content: input.content,
      ...untrustedField(input.untrusted),
      version: 1,
      created_at: now,
      updated_at: now,
    });
    const key = entryRecord(branchId, entry.entry_id);
    await this.generations.putRecord(projectId, generation, key, entry, { op: 'not_exists' });
    try {
      const current = await this.touchKeeping(
        projectId,
        generation,
        (items) => withItem(items, entryItem(projectId, entry)),
        1,
      );
      if (!current && unread) await this.withdrawIfOverCap(projectId, generation, key);
    } catch (error) {
      // The generation this process remembered was replaced by a restore (now or earlier): the
      // entry went into a generation nobody reads. Remove it and write once more into the current one.
      if (!isDomainError(error, 'CONFLICT') || generation !== cached) throw error;
      this.lastGeneration.delete(projectId);
      await this.generations.deleteRecord(projectId, generation, key);
      return this.appendEntry(projectId, branchId, input);
    }
    this.lastGeneration.set(projectId, generation);
    if (this.knownBranches.size >= MAX_KNOWN_BRANCHES) this.knownBranches.clear();
    this.knownBranches.add(`${projectId}/${generation}/${branchId}`);
    return entry;
  }

  /**
   * Replaces an entry's content (and role). With `ifVersion`, CONFLICT unless the entry is still
   * at that version; without, the write is still conditional on the version read, so two
   * replacements never silently overwrite each other.
   */
  async replaceEntry(
    projectId: string,
    branchId: string,
    entryId: string,
    input: { role?: EntryRole | undefined; content: string; untrusted?: string[] | undefined },
    ifVersion?: number,
  ): Promise<Entry> {
    const { generation } = await this.requireBranch(projectId, branchId);
    let raw = await this.generations.getRecord(projectId, generation, entryRecord(branchId, entryId));
    if (!raw && (await this.restoreContext(projectId, branchId))) {
      raw = await this.generations.getRecord(projectId, generation, entryRecord(branchId, entryId));
    }
    if (!raw) {
      throw new DomainError(
        'NOT_FOUND',
        `Branch "${branchId}" has no entry "${entryId}". Omit entry_id to append a new entry.`,
        { field: 'entry_id', entry_id: entryId },
      );
    }
    const current = Entry.parse(raw);
    if (ifVersion !== undefined && ifVersion !== current.version)
      throw versionConflict(entryId, current.version);
    // The flag belongs to the text: the new text's, or none.
    const { untrusted: _previousFlag, ...kept } = current;
    const replaced = Entry.parse({
      ...kept,
      ...untrustedField(input.untrusted),
      role: input.role ?? current.role,
      content: input.content,
      category: categorize(input.content),
      version: current.version + 1,
      updated_at: this.now(),
    });
    try {
      await this.generations.putRecord(
        projectId,
        generation,
        entryRecord(branchId, entryId),
        replaced,
        versionIs(current.version),
      );
    } catch (error) {
      if (error instanceof ConditionFailedError) throw versionConflict(entryId, undefined);
      throw error;
    }
    await this.deleteBlobs(blobKeysOf(raw));
    await this.generations.touch(projectId, generation);
    return replaced;
  }

  /** A branch with every entry of its context, whether kept as rows or compressed. */
  async branchView(projectId: string, branchId: string): Promise<BranchView> {
    const { generation, branch } = await this.requireBranch(projectId, branchId);
    const [rows, contextRaw] = await Promise.all([
      this.generations.queryRecords(projectId, generation, branchEntriesPrefix(branchId)),
      this.generations.getRecord(projectId, generation, contextRecord(branchId)),
    ]);
    const context = contextRaw ? ContextState.parse(contextRaw) : undefined;
    const live = rows.map((row) => Entry.parse(row));
    const packed = context?.body_gz ? await unpackEntries(this.memoryDeps.compressor, context.body_gz) : [];
    const entries = mergeEntries(packed, live);
    const activity = [branch.created_at, context?.restored_at ?? '', ...entries.map((e) => e.updated_at)];
    return {
      generation,
      branch,
      entries,
      context,
      rows: live,
      contextBlobs: contextRaw ? blobKeysOf(contextRaw) : [],
      last_updated: activity.reduce((a, b) => (a > b ? a : b)),
      status: context?.compressed ? 'compressed' : 'active',
    };
  }

  /** The branches of `generation` that keep entries as rows (contexts not compressed); bodies unread. */
  async branchesWithRows(projectId: string, generation: string): Promise<string[]> {
    const rows = await queryAll(this.memoryDeps.store, {
      partition: memoryPartition(projectId),
      beginsWith: `${generationPrefix(generation)}${MEMORY_RECORD.entryPrefix}`,
      consistent: true,
    });
    return [...new Set(rows.map((row) => Entry.shape.branch_id.parse(row.branch_id)))];
  }

  /** See {@link compressIfIdle}. */
  compressIfIdle(projectId: string, branchId: string): Promise<boolean> {
    return compressIfIdle(this, this.memoryDeps, projectId, branchId);
  }

  /** See {@link restoreContext}; answers false when the context was not compressed. */
  restoreContext(projectId: string, branchId: string): Promise<boolean> {
    return restoreContext(this, this.memoryDeps, projectId, branchId);
  }

  /** Stores files (already redacted), replacing any stored under the same path. */
  async putFiles(
    projectId: string,
    files: readonly {
      path: string;
      content: string;
      source: StoredFile['source'];
      untrusted?: string[] | undefined;
    }[],
  ): Promise<void> {
    if (files.length === 0) return;
    const { generation } = await this.generations.pointer(projectId);
    // A path stored already is replaced in place; only new paths take room.
    const known = await this.known(projectId);
    const stored = new Set(known.items.flatMap((item) => (item.kind === 'file' ? [item.path] : [])));
    const added = new Set(files.map((file) => file.path).filter((path) => !stored.has(path))).size;
    this.requireRoomIn(projectId, known, added, `${added} new file${added === 1 ? '' : 's'}`);
    const now = this.now();
    const put = (file: (typeof files)[number]) =>
      this.generations.putRecord(
        projectId,
        generation,
        fileRecord(file.path),
        StoredFile.parse({
          path: file.path,
          content: file.content,
          source: file.source,
          ...untrustedField(file.untrusted),
          category: categorize(`${file.path} ${file.content}`),
          stored_at: now,
        }),
      );
    for (let i = 0; i < files.length; i += FILE_WRITE_CONCURRENCY) {
      await Promise.all(files.slice(i, i + FILE_WRITE_CONCURRENCY).map(put));
    }
    await this.generations.touch(projectId, generation);
  }

  /**
   * Every item of the project (or of one branch), oldest first. The items of a project's current
   * revision are kept for the next call (a warm Lambda, the embedded server), so that grounding,
   * suggestions and the graph, which read the whole memory, cost one pointer read while nothing
   * changed; any write, from any process, moves the revision (MemoryGenerations.touch).
   */
  async items(projectId: string, options: { branch_id?: string } = {}): Promise<MemoryItem[]> {
    const all = await this.known(projectId);
    const { branch_id } = options;
    // Files belong to the project, not to a branch.
    return branch_id === undefined
      ? [...all.items]
      : all.items.filter((item) => item.kind !== 'file' && item.branch_id === branch_id);
  }

  /** Records one project's memory may hold. */
  get itemsCap(): number {
    return this.memoryDeps.itemsCap ?? DEFAULT_MEMORY_ITEMS_CAP;
  }

  /**
   * Stages a restored state (MemoryGenerations.stageGeneration) unless it holds more than the cap:
   * QUOTA_EXCEEDED before anything is staged, the current memory untouched.
   */
  async stageGeneration(projectId: string, records: readonly MemoryRecord[]): Promise<string> {
    let stored = records.length;
    for (const { key, body } of records) {
      const gz = key.startsWith(MEMORY_RECORD.contextPrefix) ? ContextState.parse(body).body_gz : undefined;
      if (gz) stored += (await unpackEntries(this.memoryDeps.compressor, gz)).length;
    }
    if (stored > this.itemsCap) throw memoryFull(projectId, this.itemsCap, stored, 0, 'restored state');
    return this.generations.stageGeneration(projectId, records);
  }

  /** The project's current items and record count, read once per revision (see {@link items}). */
  private async known(projectId: string): Promise<KnownItems> {
    const pointer = await this.generations.pointer(projectId);
    let all = this.recentItems.get(projectId);
    if (all === undefined || revisionToken(all.state) !== revisionToken(pointer)) {
      const state = { generation: pointer.generation, revision: pointer.revision };
      all = { state, ...(await this.readItems(projectId, pointer.generation)) };
      this.keepItems(projectId, all);
    }
    return all;
  }

  /** QUOTA_EXCEEDED unless the project has room for `adding` more entries (a batch, before any is written). */
  async requireRoomForEntries(projectId: string, adding: number): Promise<void> {
    await this.requireRoom(projectId, adding, adding === 1 ? 'entry' : 'entries');
  }

  /** QUOTA_EXCEEDED unless the project has room for `adding` more records. */
  private async requireRoom(projectId: string, adding: number, what: string): Promise<void> {
    this.requireRoomIn(projectId, await this.known(projectId), adding, what);
  }

  private requireRoomIn(projectId: string, known: KnownItems, adding: number, what: string): void {
    if (adding > 0 && known.stored + adding > this.itemsCap)
      throw memoryFull(projectId, this.itemsCap, known.stored, adding, what);
  }

  /**
   * Records a write of this process (MemoryGenerations.touchFrom). When no other write came since
   * the items kept for the project were read, `change` brings them to the new revision, so the
   * next reader (a search after update_memory) is spared reading every record again.
   */
  private async touchKeeping(
    projectId: string,
    generation: string,
    change: (items: readonly MemoryItem[]) => readonly MemoryItem[],
    /** Records the write added. */
    added: number,
  ): Promise<boolean> {
    const known = this.recentItems.get(projectId);
    const state = await this.generations.touchFrom(projectId, generation, known?.state);
    // Unless another call of this process replaced the kept items meanwhile.
    if (state && known && this.recentItems.get(projectId) === known) {
      this.keepItems(projectId, { state, items: change(known.items), stored: known.stored + added });
    }
    return state !== undefined;
  }

  /**
   * After an append checked against this process's count whose revision put found another
   * write first: the count is read afresh (the entry included), and an entry that took the
   * project past the cap is removed again and refused, as the check before the write would have.
   */
  private async withdrawIfOverCap(projectId: string, generation: string, key: string): Promise<void> {
    const { stored } = await this.known(projectId);
    if (stored <= this.itemsCap) return;
    await this.generations.deleteRecord(projectId, generation, key);
    await this.generations.touch(projectId, generation);
    throw memoryFull(projectId, this.itemsCap, stored - 1, 1, 'entry');
  }

  private keepItems(projectId: string, read: KnownItems): void {
    this.recentItems.delete(projectId);
    if (read.items.length > ITEMS_KEPT_AT_MOST) return;
    this.recentItems.set(projectId, read);
    let kept = 0;
    for (const { items } of this.recentItems.values()) kept += items.length;
    for (const [oldest, { items }] of this.recentItems) {
      if (kept <= ITEMS_KEPT_AT_MOST) break;
      this.recentItems.delete(oldest);
      kept -= items.length;
    }
  }

  /** The items of one generation as stored, frozen (callers share them), and its record count. */
  private async readItems(
    projectId: string,
    generation: string,
  ): Promise<{ items: readonly MemoryItem[]; stored: number }> {
    const rows = await this.generations.queryRecords(projectId, generation, '');
    let stored = rows.length;
    const items: MemoryItem[] = [];
    const entries: Entry[] = [];
    const keyOf = (row: Record<string, unknown>) =>
      (row.sk as string).slice(generationPrefix(generation).length);
    for (const row of rows) {
      const key = keyOf(row);
      if (key.startsWith(MEMORY_RECORD.entryPrefix)) entries.push(Entry.parse(row));
      else if (key.startsWith(MEMORY_RECORD.contextPrefix)) {
        const context = ContextState.parse(row);
        if (!context.compressed || !context.body_gz) continue;
        const packed = await unpackEntries(this.memoryDeps.compressor, context.body_gz);
        stored += packed.length;
        entries.push(...packed);
        if (context.summary) {
          const quoted = unionOfMarks(summarizedEntries(mergeEntries(packed)).map((e) => e.untrusted));
          items.push(summaryItem(projectId, context, context.compressed_at ?? '', quoted));
        }
      } else if (key.startsWith(MEMORY_RECORD.filePrefix)) {
        items.push(fileItem(projectId, StoredFile.parse(row)));
      }
    }
    items.push(...mergeEntries(entries).map((entry) => entryItem(projectId, entry)));
    return { items: items.sort(byCreation).map((item) => Object.freeze(item)), stored };
  }

  /**
   * Whether the branch exists, and in which generation to write: the one this process last wrote
   * when it has one (no pointer read: the write after it is conditional on that generation, so a
   * stale one is caught there), else the current one.
   */
  private async findBranch(projectId: string, branchId: string, cached: string | undefined) {
    if (cached !== undefined && this.knownBranches.has(`${projectId}/${cached}/${branchId}`)) {
      return { generation: cached, exists: true };
    }
    if (
      cached !== undefined &&
      (await this.generations.getRecord(projectId, cached, branchRecord(branchId)))
    ) {
      return { generation: cached, exists: true };
    }
    const { generation } = await this.generations.pointer(projectId);
    return {
      generation,
      exists: (await this.generations.getRecord(projectId, generation, branchRecord(branchId))) !== undefined,
    };
  }

  private async requireBranchIn(projectId: string, generation: string, branchId: string, field: string) {
    const raw = await this.generations.getRecord(projectId, generation, branchRecord(branchId));
    if (!raw) throw branchNotFound(projectId, branchId, field);
    return Branch.parse(raw);
  }

  private async deleteBlobs(keys: readonly string[]) {
    await Promise.all(keys.map((key) => this.memoryDeps.blobs.delete(key)));
  }

  private conflictOn(error: unknown, what: string): unknown {
    if (!(error instanceof ConditionFailedError)) return error;
    return new DomainError(
      'CONFLICT',
      `${what} changed while this call was writing it; read it again and retry.`,
    );
  }

  /** `<topic slug>_<yyyymmdd>_<hhmmss>_<4 hex>`, like the reference's `feature_auth_20260102_123456`. */
  private branchId(topic: string): string {
    const slug =
      topic
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 40)
        .replace(/_+$/, '') || 'branch';
    const stamp = this.now().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
    return `${slug}_${stamp}_${Buffer.from(this.memoryDeps.random.bytes(2)).toString('hex')}`;
  }

  private now(): string {
    return this.memoryDeps.clock.now().toISOString();
  }
}

/** The items of one state of a project's memory, frozen: callers share them. */
interface KnownItems {
  state: Required<ExpectedState>;
  items: readonly MemoryItem[];
  /** Records stored, each entry of a compressed context counted: what the cap is checked against. */
  stored: number;
}

/** The order items are answered in: oldest first, then by id. */
const byCreation = (a: MemoryItem, b: MemoryItem) =>
  a.created_at.localeCompare(b.created_at) || a.item_id.localeCompare(b.item_id);

/** `items` with `item` in its place in their order: a new entry's is last. */
function withItem(items: readonly MemoryItem[], item: MemoryItem): readonly MemoryItem[] {
  let at = items.length;
  while (at > 0 && byCreation(items[at - 1]!, item) > 0) at -= 1;
  // One copy, not three: every append to a project copies its kept items (a memory of thousands).
  const frozen = Object.freeze(item);
  return at === items.length ? items.concat(frozen) : items.toSpliced(at, 0, frozen);
}

/** QUOTA_EXCEEDED: the project's memory is full; says the cap, the count, and how to make room. */
function memoryFull(
  projectId: string,
  cap: number,
  stored: number,
  adding: number,
  what: string,
): DomainError {
  const holds = adding === 0 ? `The ${what} holds ${stored}` : `Project "${projectId}" holds ${stored}`;
  return new DomainError(
    'QUOTA_EXCEEDED',
    `${holds} memory records (entries, files, branches, links) and a project may hold at most ${cap}, so ` +
      `this write (${what}) was refused and nothing was stored. Make room: rewrite old entries in place ` +
      '(update_memory with entry_id), restore a smaller snapshot (restore_snapshot), or keep new work in a ' +
      'new project (initialize_context with another project_path). The operator sets the cap ' +
      '(MERIDIAN_MEMORY_MAX_ITEMS).',
    { project_id: projectId, cap, stored, adding },
  );
}

export function branchNotFound(projectId: string, branchId: string, field: string): DomainError {
  return new DomainError(
    'BRANCH_NOT_FOUND',
    `Project "${projectId}" has no branch "${branchId}". Call list_branches for its branches, or create_branch first.`,
    { field, branch_id: branchId, project_id: projectId },
  );
}

function versionConflict(entryId: string, current: number | undefined): DomainError {
  return new DomainError(
    'CONFLICT',
    current === undefined
      ? `Entry "${entryId}" changed while it was being replaced. Read it again and retry.`
      : `Entry "${entryId}" is at version ${current}, not if_version. Read it again, then retry with if_version ${current}.`,
    {
      field: 'if_version',
      entry_id: entryId,
      ...(current === undefined ? {} : { current_version: current }),
    },
  );
}
