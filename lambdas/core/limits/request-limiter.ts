import { compareAndSet } from '../compare-and-set.js';
import { DomainError } from '../errors.js';
import {
  type Clock,
  ConditionFailedError,
  type DocumentStore,
  type ItemKey,
  type StoredItem,
} from '../ports/index.js';
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

/** What this instance knows of one caller: the state it last read or wrote, and what it spent since. */
interface Entry {
  durable: Cached;
  /** Admitted here, not yet written: the next flush writes it. */
  unflushed: RequestCost;
  flushing?: Promise<void>;
  limits: RateLimits;
}

/** A caller's budgets being read ahead of its request ({@link RequestLimiter.prefetch}). */
export interface PrefetchedBudget {
  caller: string;
  read: Promise<Cached>;
}

/** An admitted request, and the write that records its spend (await it before answering). */
export interface Admission {
  /** Resolves once the spend is in the store; rejects if the store failed (the call was admitted). */
  settled: Promise<void>;
}

export interface RequestLimiterDeps {
  store: DocumentStore;
  clock: Clock;
  /** The server's budgets (MERIDIAN_RATE_LIMIT, MERIDIAN_EXPENSIVE_RATE_LIMIT); a caller's own override them. */
  defaults: RateLimits;
}

/** Attempts before a caller racing itself from many instances is told to slow down. */
const MAX_ATTEMPTS = 8;
/** Callers whose state this instance remembers (enough for every key of an organisation). */
const CACHE_SIZE = 10_000;
/** Above this share of a bucket left, a request is admitted before its spend is written. */
const ROOMY_SHARE = 0.5;

const NOTHING: RequestCost = { requests: 0, expensive: 0 };

/**
 * Per-caller token buckets in the document store: one item per caller holds both budgets (all
 * requests, and the expensive tools'), and every spend is written with one conditional put on
 * that item's version; a refusal writes nothing. The same code runs on DynamoDB and dynalite: a
 * put with a condition is all it needs (no update expressions).
 *
 * Two paths (ADR 0014). Near the limit — less than half a bucket left as this instance knows
 * it, or a caller it has not seen and whose item was not read ahead ({@link RequestLimiter.prefetch})
 * — a request is admitted only once its put succeeded, so the
 * budget holds exactly however many instances share it. Far from the limit the decision is made
 * from what this instance knows and the put runs beside the call (`Admission.settled`); when
 * another instance wrote meanwhile the put's condition fails, the item is read back and the spend
 * applied to it. An instance can then over-admit by what it admitted during one such round trip,
 * and only while the caller has more than half its budget by its own view.
 *
 * @example
 * const { settled } = await limiter.admit('key:k1', { requests: 1, expensive: 0 }); // or RATE_LIMITED
 */
export class RequestLimiter {
  private readonly entries = new Map<string, Entry>();
  /** Each caller's exact admissions in this instance, one after another (see {@link admit}). */
  private readonly exactQueues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: RequestLimiterDeps) {}

  /** The budgets that apply to a caller: its overrides over the server's defaults. */
  limitsFor(overrides: RateOverrides = {}): RateLimits {
    return { ...this.deps.defaults, ...overrides };
  }

  /**
   * Starts reading the budgets of a caller this instance has not seen, before its request is
   * authenticated, so that the read runs beside the key's lookup: {@link admit} then decides
   * from it as from its own view, admitting a roomy budget at once (the spend written beside the
   * call) and a tight one exactly. Undefined when this instance knows the caller already: the
   * warm path reads nothing.
   * A read for a caller then refused (an unknown key) is only wasted: nothing is written for it.
   */
  prefetch(caller: string): PrefetchedBudget | undefined {
    if (this.entries.has(caller)) return undefined;
    const read = this.read(bucketsKey(caller));
    read.catch(() => undefined); // awaited by admit, unless the request is refused before
    return { caller, read };
  }

  /**
   * Spends `cost` from the caller's budgets, or throws RATE_LIMITED (details: `limit`,
   * `retryAfterSeconds`, `rate`) having spent nothing. STORAGE_ERROR when the store fails on
   * the exact path (or in the read begun ahead): a limit that cannot be checked lets nothing
   * through. `ahead`, from {@link prefetch} for this caller, is taken as this instance's view.
   */
  async admit(
    caller: string,
    cost: RequestCost,
    overrides?: RateOverrides,
    ahead?: PrefetchedBudget,
  ): Promise<Admission> {
    const limits = this.limitsFor(overrides);
    const key = bucketsKey(caller);
    if (ahead?.caller === caller && !this.entries.has(caller)) {
      // The read begun ahead is this instance's view of the caller from now on, as if an exact
      // admission had just made it: a roomy budget then admits at once, its spend written beside
      // the call, and a cold start's first request waits for no budget round trip at all.
      const durable = await ahead.read;
      if (!this.entries.has(caller)) this.remember(caller, { durable, unflushed: NOTHING, limits });
    }
    const entry = this.entries.get(caller);
    if (entry && this.roomy(entry, limits, cost)) {
      entry.limits = limits;
      entry.unflushed = added(entry.unflushed, cost);
      entry.flushing ??= this.flush(key, entry);
      return { settled: entry.flushing };
    }
    if (entry?.flushing) await entry.flushing.catch(() => undefined);
    // One instance never races itself for a caller's item: its exact admissions take turns, so
    // parallel requests from one agent are refused for their budget, never for losing a race to
    // each other; only other instances can make a conditional write fail.
    const previous = this.exactQueues.get(caller) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.admitExactly(caller, key, cost, limits));
    this.exactQueues.set(caller, turn);
    try {
      await turn;
    } finally {
      if (this.exactQueues.get(caller) === turn) this.exactQueues.delete(caller);
    }
    return { settled: Promise.resolve() };
  }

  /** True when every limited bucket keeps more than half its capacity after `cost`, by this instance's view. */
  private roomy(entry: Entry, limits: RateLimits, cost: RequestCost): boolean {
    const now = this.deps.clock.now().getTime();
    return LIMIT_NAMES.every((name) => {
      const rate = limits[name];
      if (rate === 'off') return true;
      const left = refill(entry.durable.buckets[name], rate, now).tokens - entry.unflushed[name] - cost[name];
      return left >= rate.capacity * ROOMY_SHARE;
    });
  }

  /** The exact path: the spend (and whatever this instance had not written yet) put before admitting. */
  private async admitExactly(
    caller: string,
    key: ItemKey,
    cost: RequestCost,
    limits: RateLimits,
  ): Promise<void> {
    // This instance's view first; a round that lost the race reads the item afresh.
    let known = this.entries.get(caller)?.durable;
    await compareAndSet(
      async () => {
        const from = known ?? (await this.read(key));
        known = undefined;
        const unflushed = this.entries.get(caller)?.unflushed ?? NOTHING;
        const now = this.deps.clock.now().getTime();
        const next: Partial<Record<LimitName, BucketState>> = {};
        for (const name of LIMIT_NAMES) {
          const rate = limits[name];
          if (rate === 'off') continue;
          const bucket = refill(from.buckets[name], rate, now);
          const left = { tokens: bucket.tokens - unflushed[name], at: bucket.at };
          if (left.tokens < cost[name]) throw rateLimited(name, rate, secondsUntil(left, rate, cost[name]));
          next[name] = { tokens: left.tokens - cost[name], at: bucket.at };
        }
        const written: Cached = { version: from.version + 1, buckets: next };
        await this.put(key, from, written, limits);
        const entry = this.entries.get(caller);
        if (entry) {
          entry.durable = written;
          entry.unflushed = subtracted(entry.unflushed, unflushed);
        } else this.remember(caller, { durable: written, unflushed: NOTHING, limits });
      },
      {
        maxAttempts: MAX_ATTEMPTS,
        exhausted: () =>
          new DomainError(
            'RATE_LIMITED',
            'Too many requests with this key are arriving at the same moment. Wait a second, then retry; send fewer requests in parallel.',
            { limit: 'requests', retryAfterSeconds: 1 },
          ),
      },
    );
  }

  /** Writes what this instance admitted without writing, until nothing is left; one flush at a time. */
  private async flush(key: ItemKey, entry: Entry): Promise<void> {
    try {
      while (entry.unflushed.requests > 0 || entry.unflushed.expensive > 0) {
        const spend = entry.unflushed;
        entry.unflushed = NOTHING;
        try {
          await this.writeSpend(key, entry, spend);
        } catch (error) {
          // Kept for the next flush: a spend is never forgotten because the store failed once.
          entry.unflushed = added(entry.unflushed, spend);
          throw error;
        }
      }
    } finally {
      entry.flushing = undefined;
    }
  }

  /** Applies an admitted spend to the stored state, reading it back when another instance wrote. */
  private async writeSpend(key: ItemKey, entry: Entry, spend: RequestCost): Promise<void> {
    for (;;) {
      const now = this.deps.clock.now().getTime();
      const next: Partial<Record<LimitName, BucketState>> = {};
      for (const name of LIMIT_NAMES) {
        const rate = entry.limits[name];
        if (rate === 'off') continue;
        // May go below zero: a debt the refill pays before anything else is admitted.
        const bucket = refill(entry.durable.buckets[name], rate, now);
        next[name] = { tokens: bucket.tokens - spend[name], at: bucket.at };
      }
      const written: Cached = { version: entry.durable.version + 1, buckets: next };
      try {
        await this.put(key, entry.durable, written, entry.limits);
        entry.durable = written;
        return;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        entry.durable = await this.read(key);
      }
    }
  }

  private async put(key: ItemKey, known: Cached, written: Cached, limits: RateLimits): Promise<void> {
    await this.deps.store.put(toItem(key, written, limits), {
      condition:
        known.version === 0 ? { op: 'not_exists' } : { op: 'eq', attribute: 'version', value: known.version },
    });
  }

  private async read(key: ItemKey): Promise<Cached> {
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

  private remember(caller: string, entry: Entry): void {
    this.entries.set(caller, entry);
    if (this.entries.size > CACHE_SIZE) {
      // The oldest caller that has nothing left to write.
      for (const [name, candidate] of this.entries) {
        if (!candidate.flushing && candidate.unflushed === NOTHING) {
          this.entries.delete(name);
          break;
        }
      }
    }
  }
}

function bucketsKey(caller: string): ItemKey {
  return { pk: `${PK_PREFIX.rateLimit}${caller}`, sk: SK.rateLimit.buckets };
}

function added(a: RequestCost, b: RequestCost): RequestCost {
  return { requests: a.requests + b.requests, expensive: a.expensive + b.expensive };
}

function subtracted(a: RequestCost, b: RequestCost): RequestCost {
  // Never below zero: a flush that ran meanwhile may already have taken part of `b`.
  const left = {
    requests: Math.max(0, a.requests - b.requests),
    expensive: Math.max(0, a.expensive - b.expensive),
  };
  return left.requests === 0 && left.expensive === 0 ? NOTHING : left;
}

function toItem(key: ItemKey, state: Cached, limits: RateLimits): BucketsItem {
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
