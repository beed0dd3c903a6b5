import type { Embedder } from '../../ports/index.js';
import { searchTerms } from './text-terms.js';

/**
 * The default embedder: deterministic, local, nothing downloaded (no npm package ships
 * sentence-model weights). Feature hashing puts a text's words, word pairs, character n-grams and
 * a few developer-vocabulary concepts into a fixed number of dimensions, then L2-normalises.
 *
 * What it catches that keyword search misses: word-form and spelling variants ("authn" /
 * "authentication", "k8s" / "kubernetes") and partial words through the n-grams; true paraphrase
 * is beyond it, which is why results are fused with BM25 rather than replaced by it.
 */
export const LOCAL_EMBEDDER_MODEL_ID = 'meridian-local-hash-v1';
export const LOCAL_EMBEDDER_DIMENSION = 384;

// Relative weights of the feature families, tuned on test/fixtures/memory-search (recall@5).
const WORD_WEIGHT = 1;
const CONCEPT_WEIGHT = 0.8;
const PAIR_WEIGHT = 0.5;
const NGRAM_WEIGHT = 0.35;
const NGRAM_SIZES = [3, 4] as const;

/**
 * Developer words that mean one thing: each group shares a concept feature, so a query for
 * "login" finds a memory about "authentication". Terms are written as {@link searchTerms} yields
 * them (stemmed).
 */
const CONCEPTS: readonly string[][] = [
  ['auth', 'authn', 'authenticat', 'login', 'signin', 'sign', 'sso', 'oauth', 'credential', 'password'],
  ['authz', 'authoriz', 'permission', 'grant', 'role', 'rbac', 'acl', 'access'],
  ['db', 'database', 'postgr', 'postgresql', 'mysql', 'sql', 'dynamodb', 'table', 'sqlite'],
  ['k8s', 'kubernet', 'kubectl', 'helm', 'pod', 'cluster'],
  ['config', 'configur', 'setting', 'env', 'environment', 'variable', 'flag'],
  ['perf', 'performance', 'latency', 'slow', 'fast', 'speed', 'throughput', 'p99', 'p95'],
  ['bug', 'fix', 'crash', 'error', 'broken', 'regression', 'fail', 'exception', 'issue'],
  ['test', 'spec', 'vitest', 'jest', 'unit', 'integrat', 'e2e', 'flaky'],
  ['deploy', 'release', 'rollout', 'ship', 'ci', 'pipeline', 'cd'],
  ['cach', 'redis', 'memcach', 'ttl', 'invalidat'],
  ['queue', 'sqs', 'kafka', 'message', 'event', 'consumer', 'producer'],
  ['timeout', 'deadline', 'hang', 'stuck'],
  ['retry', 'backoff', 'jitter', 'idempot'],
  ['memory', 'oom', 'leak', 'heap', 'gc'],
  ['secret', 'key', 'token', 'kms', 'encrypt', 'vault'],
  ['log', 'logg', 'trace', 'tracing', 'metric', 'observability', 'monitor', 'alert', 'dashboard'],
  ['ui', 'frontend', 'react', 'css', 'component', 'page', 'button'],
  ['api', 'endpoint', 'rout', 'rest', 'graphql', 'http', 'request'],
  ['decid', 'decision', 'chose', 'choos', 'adr', 'agre', 'pick'],
  ['upgrad', 'bump', 'version', 'migr', 'dependency'],
  ['date', 'time', 'timezone', 'utc', 'dst', 'clock'],
  ['search', 'index', 'query', 'bm25', 'rank'],
  ['s3', 'bucket', 'blob', 'object', 'storage', 'upload'],
  ['rate', 'limit', 'throttl', 'quota', '429'],
];

const CONCEPT_OF = new Map<string, number>();
CONCEPTS.forEach((group, index) => {
  for (const term of group) CONCEPT_OF.set(term, index);
});

/**
 * The local embedder with its default dimension.
 *
 * @example
 * const embedder = localEmbedder();
 * const [a, b] = await embedder.embed(['login fails', 'authentication error']);
 */
export function localEmbedder(dimension = LOCAL_EMBEDDER_DIMENSION): Embedder {
  return {
    modelId: `${LOCAL_EMBEDDER_MODEL_ID}-${dimension}`,
    dimension,
    embed: async (texts) => texts.map((text) => embedText(text, dimension)),
  };
}

/** Weight of one feature family, by the prefix its features carry. */
const FAMILY_WEIGHT: Record<string, number> = {
  w: WORD_WEIGHT,
  c: CONCEPT_WEIGHT,
  p: PAIR_WEIGHT,
  g: NGRAM_WEIGHT,
};

/** One text's vector, synchronously (the port is async for hosted models). */
export function embedText(text: string, dimension: number): Float32Array {
  const counts = new Map<string, number>();
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  const terms = searchTerms(text);
  terms.forEach((term, i) => {
    add(`w:${term}`);
    const concept = CONCEPT_OF.get(term);
    if (concept !== undefined) add(`c:${concept}`);
    if (i > 0) add(`p:${terms[i - 1]} ${term}`);
    const padded = `^${term}$`;
    for (const size of NGRAM_SIZES) {
      for (let start = 0; start + size <= padded.length; start++)
        add(`g:${padded.slice(start, start + size)}`);
    }
  });
  const vector = new Float32Array(dimension);
  for (const [feature, count] of counts) {
    const hash = fnv1a(feature);
    // A second hash bit picks the sign, so collisions cancel out on average instead of adding up.
    const sign = hash & 0x8000_0000 ? -1 : 1;
    // Sublinear: a word said five times is not five times as relevant.
    const weight = FAMILY_WEIGHT[feature[0]!]! * (1 + Math.log(count));
    vector[(hash & 0x7fff_ffff) % dimension]! += sign * weight;
  }
  return normalise(vector);
}

function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/** FNV-1a, 32 bits: fast, stable across runtimes, good enough spread for feature hashing. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x0100_0193);
  }
  return hash >>> 0;
}
