import { ConditionFailedError, type DocumentStore, type StoredItem } from '../../ports/index.js';
import { TurnSharer } from '../../turns.js';
import type { Series } from '../series.js';
import {
  eventSk,
  itemToSeries,
  partitionOf,
  type SeriesMarks,
  seriesSk,
  seriesToItem,
} from './native-items.js';

/**
 * A pending item older than this is a crash's leftover, not a write in flight: a write that
 * commits it takes two requests, so ten minutes leaves room for any stall.
 */
export const PENDING_GRACE_MS = 10 * 60_000;

export type LoadedSeries = ReturnType<typeof itemToSeries>;

/** What deciding a pending series needs to know of the items that commit it. */
interface CommitEvidence {
  /** Whether the one-off event with this id still exists. */
  oneOffExists(id: string): boolean;
  /** The `split_into` of the series with this id, if it exists. */
  splitInto(id: string): string | undefined;
}

/**
 * Whether a pending series has been committed: a promotion once the one-off event of its id is
 * gone, a split once the series it was split from names it.
 */
export function isCommitted(loaded: LoadedSeries, evidence: CommitEvidence): boolean {
  const { pending } = loaded;
  if (!pending) return true;
  const id = loaded.series.master.id;
  if (pending.kind === 'promotion') return !evidence.oneOffExists(id);
  return evidence.splitInto(pending.of) === id;
}

/**
 * What a reader may show of a calendar's series items: committed ones. Leftovers of a crash
 * (pending, uncommitted, older than {@link PENDING_GRACE_MS}) are deleted on the way — the sweep
 * — so they never pile up; younger ones may still be committed and are only skipped.
 */
export async function committedSeries(
  store: DocumentStore,
  nativeId: string,
  items: readonly StoredItem[],
  nowMs: number,
): Promise<Series[]> {
  const loaded: ReturnType<typeof itemToSeries>[] = [];
  const turns = new TurnSharer();
  for (const item of items) {
    await turns.pass();
    loaded.push(itemToSeries(item));
  }
  const byId = new Map(loaded.map((entry) => [entry.series.master.id, entry]));
  const promotions = loaded.filter((entry) => entry.pending?.kind === 'promotion');
  const oneOffs = promotions.length
    ? await store.batchGet(
        promotions.map((entry) => ({ pk: partitionOf(nativeId), sk: eventSk(entry.series.master.id) })),
      )
    : [];
  const oneOffIds = new Set(oneOffs.map((item) => item.sk.slice(eventSk('').length)));
  const evidence: CommitEvidence = {
    oneOffExists: (id) => oneOffIds.has(id),
    splitInto: (id) => byId.get(id)?.split_into,
  };
  const shown: Series[] = [];
  for (const entry of loaded) {
    if (isCommitted(entry, evidence)) shown.push(entry.series);
    else if (isStale(entry, nowMs)) await removeLeftover(store, nativeId, entry);
  }
  return shown;
}

/**
 * One series read by id, for a get or before a write: `undefined` while uncommitted (a stale
 * leftover is removed), else the series. A committed pending series is finalized first, and so is
 * the series a committed split created (`split_into`), so that the next write of either is an
 * ordinary one that may drop the marks.
 */
export async function resolveSeries(
  store: DocumentStore,
  nativeId: string,
  loaded: LoadedSeries,
  oneOffExists: boolean,
  nowMs: number,
): Promise<LoadedSeries | undefined> {
  const read = async (id: string) => {
    const item = await store.get({ pk: partitionOf(nativeId), sk: seriesSk(id) }, { consistent: true });
    return item ? itemToSeries(item) : undefined;
  };
  if (loaded.pending) {
    const parent = loaded.pending.kind === 'split' ? await read(loaded.pending.of) : undefined;
    const committed = isCommitted(loaded, {
      oneOffExists: () => oneOffExists,
      splitInto: () => parent?.split_into,
    });
    if (!committed) {
      if (isStale(loaded, nowMs)) await removeLeftover(store, nativeId, loaded);
      return undefined;
    }
    await finalize(store, nativeId, loaded.series, loaded.version);
    return { series: loaded.series, version: loaded.version };
  }
  if (loaded.split_into) {
    const tail = await read(loaded.split_into);
    if (tail?.pending) await finalize(store, nativeId, tail.series, tail.version);
  }
  return loaded;
}

function isStale(entry: LoadedSeries, nowMs: number): boolean {
  return entry.pending !== undefined && nowMs - entry.pending.since > PENDING_GRACE_MS;
}

/** Deletes a crash's leftover, unless it changed since it was read. */
async function removeLeftover(store: DocumentStore, nativeId: string, entry: LoadedSeries): Promise<void> {
  await store
    .delete(
      { pk: partitionOf(nativeId), sk: seriesSk(entry.series.master.id) },
      { condition: { op: 'eq', attribute: 'version', value: entry.version } },
    )
    .catch(ignoreConditionFailed);
}

/**
 * The last write of a promotion or split: the committed series loses its `pending` mark, so it no
 * longer depends on the item that committed it. Any later write of it does the same, so a failed
 * condition means someone already did.
 */
export async function finalize(
  store: DocumentStore,
  nativeId: string,
  series: Series,
  version: number,
  marks: SeriesMarks = {},
): Promise<void> {
  await store
    .put(seriesToItem(nativeId, series, version, marks), {
      condition: { op: 'eq', attribute: 'version', value: version },
    })
    .catch(ignoreConditionFailed);
}

function ignoreConditionFailed(error: unknown): void {
  if (!(error instanceof ConditionFailedError)) throw error;
}
