import type { DocumentStore, StoredItem } from '../../storage/document-store.js';
import { ConditionFailedError } from '../../storage/document-store.js';
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

/**
 * Whether a pending series has been committed: a promotion once the one-off event of its id is
 * gone, a split once the series it was split from names it. `oneOffIds` are the ids of promotions
 * whose one-off event still exists; `byId` the calendar's series.
 */
export function isCommitted(
  loaded: LoadedSeries,
  byId: ReadonlyMap<string, LoadedSeries>,
  oneOffIds: ReadonlySet<string>,
): boolean {
  const { pending } = loaded;
  if (!pending) return true;
  const id = loaded.series.master.id;
  if (pending.kind === 'promotion') return !oneOffIds.has(id);
  return byId.get(pending.of)?.split_into === id;
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
  const loaded = items.map(itemToSeries);
  const byId = new Map(loaded.map((entry) => [entry.series.master.id, entry]));
  const promotions = loaded.filter((entry) => entry.pending?.kind === 'promotion');
  const oneOffs = promotions.length
    ? await store.batchGet(
        promotions.map((entry) => ({ pk: partitionOf(nativeId), sk: eventSk(entry.series.master.id) })),
      )
    : [];
  const oneOffIds = new Set(oneOffs.map((item) => item.sk.slice(eventSk('').length)));
  const shown: Series[] = [];
  for (const entry of loaded) {
    if (isCommitted(entry, byId, oneOffIds)) shown.push(entry.series);
    else if (isStale(entry, nowMs)) await removeLeftover(store, nativeId, entry);
  }
  return shown;
}

export function isStale(entry: LoadedSeries, nowMs: number): boolean {
  return entry.pending !== undefined && nowMs - entry.pending.since > PENDING_GRACE_MS;
}

/** Deletes a crash's leftover, unless it changed since it was read. */
export async function removeLeftover(
  store: DocumentStore,
  nativeId: string,
  entry: LoadedSeries,
): Promise<void> {
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
