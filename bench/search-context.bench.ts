/**
 * search_context's engine over synthetic project memories: the median hybrid query (BM25 +
 * vector scan + reciprocal rank fusion + snippets, index warm in memory) against the same query
 * on bare minisearch with the same tokenising (target ≤ 2×), then how build and query times grow
 * from 1,000 to 100,000 memories (the 100,000 index is built once), and the first search after one
 * write at 10,000 memories (the index updated, not rebuilt).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from '../lambdas/adapters/files/file-blob-store.js';
import { HybridIndex } from '../lambdas/core/memory/search/hybrid-index.js';
import { KEYWORD_SEARCH_OPTIONS, keywordIndex } from '../lambdas/core/memory/search/keyword-index.js';
import { localEmbedder } from '../lambdas/core/memory/search/local-embedder.js';
import { MemorySearch } from '../lambdas/core/memory/search/memory-search.js';
import type { MemoryItem } from '../lambdas/core/memory/store/memory-records.js';
import { systemClock } from '../lambdas/core/ports/index.js';
import { compare, measure, reportFigure, reportRatio } from './harness.js';

const FIXTURE = new URL('../test/fixtures/memory-search/', import.meta.url);
const corpus = JSON.parse(readFileSync(new URL('corpus.json', FIXTURE), 'utf8')) as { text: string }[];
const queries = (
  JSON.parse(readFileSync(new URL('queries.json', FIXTURE), 'utf8')) as { query: string }[]
).map((q) => q.query);
const OPTIONS = { top_k: 10, min_score: 0.3 };

/** A small seeded generator (mulberry32), so every run searches the same memories. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `count` memories made of the fixture's sentences recombined, each with a ticket number and a
 * file path of its own (so the vocabulary grows with the corpus as a real one does).
 */
function memories(count: number): MemoryItem[] {
  const next = random(count);
  const sentences = corpus.flatMap((entry) => entry.text.split(/(?<=[.;])\s+/));
  const pick = () => sentences[Math.floor(next() * sentences.length)]!;
  const categories = ['development', 'bug_fix', 'feature', 'decision', 'configuration', 'testing'];
  return Array.from({ length: count }, (_, i) => ({
    item_id: `m${i}`,
    project_id: 'bench',
    branch_id: `branch-${i % 20}`,
    kind: 'entry',
    category: categories[i % categories.length]!,
    created_at: '2026-11-23T10:00:00Z',
    text: `${pick()} ${pick()} Ticket MER-${Math.floor(next() * 50_000)} touches src/module-${i % 997}/file-${i}.ts.`,
  }));
}

function cycle<T>(values: readonly T[]): () => T {
  let at = 0;
  return () => values[at++ % values.length]!;
}

async function compareWithMinisearch(dir: string): Promise<void> {
  const items = memories(10_000);
  const search = new MemorySearch({
    reader: { items: async () => items, revision: async () => 'r1' },
    blobs: new FileBlobStore(dir),
    embedder: localEmbedder(),
    clock: systemClock,
  });
  await search.search('bench', 'warm up', OPTIONS);
  const bare = keywordIndex();
  bare.addAll(items.map((item) => ({ id: item.item_id, text: item.text })));
  // One timed call runs all 100 queries, so each sample weighs cheap and expensive queries alike.
  const result = await compare(
    {
      name: 'search_context engine',
      fn: async () => {
        for (const query of queries) await search.search('bench', query, OPTIONS);
      },
    },
    {
      name: 'bare minisearch',
      fn: () => {
        for (const query of queries) bare.search(query, KEYWORD_SEARCH_OPTIONS).slice(0, OPTIONS.top_k);
      },
    },
    { rounds: 5, runs: 20, warmup: 2 },
  );
  reportRatio('100 queries over 10,000 memories', result, { kind: 'slowdown', value: 2 });
}

async function growth(): Promise<void> {
  const embedder = localEmbedder();
  for (const size of [1_000, 10_000, 100_000]) {
    const items = memories(size);
    const started = performance.now();
    const index = await HybridIndex.build(items, embedder, 'r1');
    const buildMs = performance.now() - started;
    const bytes = index.toBytes().byteLength;
    const query = cycle(queries);
    const sample = await measure('query', () => index.search(query(), OPTIONS, embedder), {
      runs: size >= 100_000 ? 30 : 200,
      warmup: 10,
    });
    reportFigure(
      `${size.toLocaleString('en')} memories`,
      `query median ${sample.medianMs.toFixed(2)} ms, p90 ${sample.p90Ms.toFixed(2)} ms; ` +
        `build ${(buildMs / 1000).toFixed(1)} s; stored index ${(bytes / 1_048_576).toFixed(1)} MiB`,
    );
  }
}

/**
 * The first search after one write at 10,000 memories, in a warm process (the previous revision's
 * index cached) and in a cold one (only the stored index of the previous revision): the index is
 * updated with the written memory instead of rebuilt. The reader is in memory, so this is the
 * index's work and the blob store's, not the table read.
 */
async function firstSearchAfterOneWrite(dir: string): Promise<void> {
  let items = memories(10_000);
  let revision = 0;
  const reader = { items: async () => items, revision: async () => `r${revision}` };
  const blobs = new FileBlobStore(dir);
  const searchOf = () => new MemorySearch({ reader, blobs, embedder: localEmbedder(), clock: systemClock });
  const query = cycle(queries);
  let written = 0;
  const afterOneWrite = async (search: MemorySearch) => {
    written += 1;
    items = [
      ...items,
      { ...items[written]!, item_id: `w${written}`, text: `Note ${written}: ${items[written]!.text}` },
    ];
    revision += 1;
    const started = performance.now();
    const answer = await search.search('after-write', query(), OPTIONS);
    return { ms: performance.now() - started, source: answer.index_source };
  };
  const median = (runs: { ms: number }[]) =>
    runs.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const sources = (runs: { source: string }[]) => [...new Set(runs.map((r) => r.source))].join('/');

  const warm = searchOf();
  await warm.search('after-write', 'warm up', OPTIONS);
  const warmRuns = [];
  for (let i = 0; i < 5; i += 1) warmRuns.push(await afterOneWrite(warm));
  const coldRuns = [];
  for (let i = 0; i < 5; i += 1) coldRuns.push(await afterOneWrite(searchOf()));
  reportFigure(
    'first search after one write, 10,000 memories',
    `warm process median ${median(warmRuns).toFixed(0)} ms (index ${sources(warmRuns)}); ` +
      `cold process median ${median(coldRuns).toFixed(0)} ms (index ${sources(coldRuns)})`,
  );
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-search-'));
  try {
    await firstSearchAfterOneWrite(join(dir, 'after-write'));
    await compareWithMinisearch(dir);
    await growth();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
