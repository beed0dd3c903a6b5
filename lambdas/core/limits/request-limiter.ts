import { DomainError } from '../errors.js';
import { type Clock, ConditionFailedError, type DocumentStore, type StoredItem } from '../ports/index.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';
import {
  formatRate,
  LIMIT_NAMES,
  type LimitName,
  type Rate,
  type RateLimits,
  type RateOverrides,
} from './rate.js';
import { type BucketState, refill, secondsUntil } from './token-bucket.js';

/** What one request spends from each budget: 1 request (a batch: one per message), N expensive calls. */
export type RequestCost = Record<LimitName, number>;

/** The buckets item as stored: both budgets of one caller and the version every write checks. */
interface BucketsItem extends StoredItem {
  version: number;
  requests_tokens?: number;
  requests_at?: number;
  expensive_tokens?: number;
  expensive_at?: number;
}

interface Cached {
  version: number;
  buckets: Partial<Record<LimitName, BucketState>>;
}

export interface RequestLimiterDeps {
  store: DocumentStore;
  clock: Clock;
  /** The server's budgets (MERIDIAN_RATE_LIMIT, MERIDIAN_EXPENSIVE_RATE_LIMIT); a caller's own override them. */
  defaults: RateLimits;
}

/** Attempts before a caller racing itself from many instances is told to slow down. */
const MAX_ATTEMPTS = 8;
/** Callers whose last-written bucket this instance remembers (enough for every key of an organisation). */
const CACHE_SIZE = 10_000;

/**
 * Per-caller token buckets in the document store: one item per caller holds both budgets (all
 * requests, and the expensive tools'), so admitting a request is one conditional put on that
 * item's version. This instance remembers the version it last wrote, so the usual request costs
 * that one write and no read; when another instance wrote meanwhile, the condition fails and the
 * item is read back (strongly) before the next try. A refusal writes nothing. The same code runs
 * on DynamoDB and dynalite: a put with a condition is all it needs (no update expressions).
 *
 * @example
 * await limiter.admit('key:k1', { requests: 1, expensive: 0 }); // throws RATE_LIMITED when spent
 */
export class RequestLimiter {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly deps: RequestLimiterDeps) {}

  /** The budgets that apply to a caller: its overrides over the server's defaults. */
  limitsFor(overrides: RateOverrides = {}): RateLimits {
    return { ...this.deps.defaults, ...overrides };
  }

  /**
   * Spends `cost` from the caller's budgets, or throws RATE_LIMITED (details: `limit`,
   * `retryAfterSeconds`, `rate`) having spent nothing. STORAGE_ERROR when the store fails: a
   * limit that cannot be checked lets nothing through.
   */
  async admit(caller: string, cost: RequestCost, overrides?: RateOverrides): Promise<void> {
    const limits = this.limitsFor(overrides);
    const key = { pk: `${PK_PREFIX.rateLimit}${caller}`, sk: SK.rateLimit.buckets };
    let known = this.cache.get(caller);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      known ??= await this.read(key);
      const now = this.deps.clock.now().getTime();
      const next: Partial<Record<LimitName, BucketState>> = {};
      for (const name of LIMIT_NAMES) {
        const rate = limits[name];
        if (rate === 'off') continue;
        const bucket = refill(known.buckets[name], rate, now);
        if (bucket.tokens < cost[name]) throw rateLimited(name, rate, secondsUntil(bucket, rate, cost[name]));
        next[name] = { tokens: bucket.tokens - cost[name], at: bucket.at };
      }
      const written: Cached = { version: known.version + 1, buckets: next };
      try {
        await this.deps.store.put(toItem(key, written, limits), {
          condition:
            known.version === 0
              ? { op: 'not_exists' }
              : { op: 'eq', attribute: 'version', value: known.version },
        });
        this.remember(caller, written);
        return;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        known = undefined;
      }
    }
    throw new DomainError(
      'RATE_LIMITED',
      'Too many requests with this key are arriving at the same moment. Wait a second, then retry; send fewer requests in parallel.',
      { limit: 'requests', retryAfterSeconds: 1 },
    );
  }

  private async read(key: { pk: string; sk: string }): Promise<Cached> {
    const item = await this.deps.store.get<BucketsItem>(key, { consistent: true });
    if (!item) return { version: 0, buckets: {} };
    const buckets: Partial<Record<LimitName, BucketState>> = {};
    for (const name of LIMIT_NAMES) {
      const tokens = item[`${name}_tokens`];
      const at = item[`${name}_at`];
      if (typeof tokens === 'number' && typeof at === 'number') buckets[name] = { tokens, at };
    }
    return { version: item.version, buckets };
  }

  private remember(caller: string, state: Cached): void {
    this.cache.delete(caller);
    this.cache.set(caller, state);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
  }
}

function toItem(key: { pk: string; sk: string }, state: Cached, limits: RateLimits): BucketsItem {
  const item: BucketsItem = { ...key, version: state.version };
  let fullAfter = 0;
  for (const name of LIMIT_NAMES) {
    const bucket = state.buckets[name];
    const rate = limits[name];
    if (!bucket || rate === 'off') continue;
    item[`${name}_tokens`] = bucket.tokens;
    item[`${name}_at`] = bucket.at;
    fullAfter = Math.max(fullAfter, bucket.at / 1000 + rate.periodSeconds);
  }
  // A bucket full again is the same as none: DynamoDB may collect it (never relied on).
  if (fullAfter > 0) item.ttl = Math.ceil(fullAfter) + 3600;
  return item;
}

function rateLimited(limit: LimitName, rate: Rate, retryAfterSeconds: number): DomainError {
  const what =
    limit === 'expensive'
      ? 'calls of expensive tools (booking, snapshots, cloud sync, full scans)'
      : 'requests';
  return new DomainError(
    'RATE_LIMITED',
    `Rate limit "${limit}" reached: this key may make ${rate.capacity} ${what} per ${rate.periodSeconds} s. Retry after ${retryAfterSeconds} s; the owner can raise it with \`meridian keys limits KEY_ID ${limit}=COUNT/PERIOD\`.`,
    { limit, retryAfterSeconds, rate: formatRate(rate) },
  );
}
