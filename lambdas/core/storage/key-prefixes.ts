/**
 * Every key shape in Meridian's one table, in one place (layout in docs/data-model.md). Items of
 * every kind share the table, so a prefix names the kind: two kinds whose prefixes overlap could
 * read each other's items. test/core/storage/key-prefixes.test.ts proves that none overlap and
 * that no other file under lambdas/ spells a key literal of its own. A change here is a data
 * migration, not a refactoring.
 *
 * A value ending in `#` is a prefix followed by an id; any other value is a whole key.
 */

/** Partition key (`pk`) prefixes: one per kind of item, each followed by that item's id. */
export const PK_PREFIX = {
  /** An API key and its grants. */
  apiKey: 'KEY#',
  /** A calendar's registry record. */
  calendar: 'CAL#',
  /** A provider connection (its encrypted secret). */
  connection: 'CONN#',
  /** A native calendar's events and series. */
  nativeCalendar: 'NCAL#',
  /** Meridian's copy of a connected calendar (the shadow calendar). */
  shadow: 'SHADOW#',
  /** The holds of book_slot on one calendar. */
  slotLock: 'LOCK#',
  /** One booking's or keyed tool call's idempotency record. */
  idempotency: 'IDEM#',
  project: 'PROJECT#',
  /** `MEMSUG#<project id>`: a project's context-suggestion sessions and their feedback. */
  memorySuggestions: 'MEMSUG#',
  rule: 'RULE#',
  pin: 'PIN#',
  /** A project's memory: the pointer to its current generation and every record under it. */
  memory: 'MEM#',
  /** `MEMPATH#<sha256 of "<principal>\n<path>">`: the caller's project for a folder path (project-for-path.ts). */
  memoryPath: 'MEMPATH#',
  /** A project's memory snapshots, cloud-sync state and sync quotas (apart from the memory itself). */
  memorySnapshots: 'MSNAP#',
  /** `META#schema`: which version of this layout the table holds (core/storage/schema-version.ts). */
  meta: 'META#',
  /** `USER#<user name>`: a person who signs in to the embedded authorization server, and their grants. */
  user: 'USER#',
  /** `OIDC#<model>#<id>`: one record of the authorization server (oidc-provider's models). */
  oauth: 'OIDC#',
  /**
   * `OAUTHKEY#signing`: the AWS authorization server's 32-byte secret (encrypted under the data
   * key) and its public verification key (plain), in one item (runtime/oauth/stored-oauth-keys.ts).
   */
  oauthKey: 'OAUTHKEY#',
  /** `RATE#<principal name>`: one caller's request budgets (core/limits/request-limiter.ts). */
  rateLimit: 'RATE#',
  /** `AUDIT#<yyyy-mm-dd>`: one UTC day of the audit log, one hash chain (core/audit/audit-log.ts). */
  audit: 'AUDIT#',
} as const;

export type PartitionKind = keyof typeof PK_PREFIX;

/**
 * Sort keys (`sk`) by the kind of partition they appear in. A sort key is only ever compared
 * within its partition, so the same text may mean different things in two kinds: `EVT#` and
 * `SER#` are a native calendar's events and series, and in a shadow partition its short events
 * and series (a shadow's `EVT#` is followed by the start, a native one's by the id).
 */
export const SK = {
  apiKey: {
    record: 'KEY',
    /** `GRANT#<calendar id>`: one per calendar the key may use. */
    grantPrefix: 'GRANT#',
  },
  calendar: { record: 'CAL' },
  connection: { record: 'CONN' },
  nativeCalendar: {
    /** `EVT#<id>`: a one-off event. */
    eventPrefix: 'EVT#',
    /** `SER#<id>`: a series master with its edited occurrences. */
    seriesPrefix: 'SER#',
  },
  shadow: {
    /** Sync state: token or ctag, window, synced_at, last error. */
    syncState: 'SYNC',
    /** Who is syncing this calendar now. */
    lease: 'LEASE',
    /** `EVT#<start ISO ms>#<id>`: a one-off event up to a day long (time-range queries). */
    shortEventPrefix: 'EVT#',
    /** `LONG#<id>`: a one-off event longer than a day. */
    longEventPrefix: 'LONG#',
    /** `SER#<id>`: a series master with its RRULE. */
    seriesPrefix: 'SER#',
    /** `OVR#<master id>#<original key>`: an edited or cancelled occurrence (nested under its master). */
    overridePrefix: 'OVR#',
    /** `IDX#<id>`: where event <id> lives now. */
    indexPrefix: 'IDX#',
    /** `RES#<href>`: CalDAV only, a resource's ETag and the event ids it holds. */
    resourcePrefix: 'RES#',
  },
  slotLock: { holds: 'HOLDS' },
  /** book_slot's record, and a keyed tool call's (core/booking/idempotency.ts). */
  idempotency: { booking: 'BOOKING', call: 'CALL' },
  project: { record: 'PROJECT' },
  /** `SES#<session id>`: one suggest_contexts answer, then accepted or rejected (session ids sort by time). */
  memorySuggestions: { sessionPrefix: 'SES#' },
  rule: { record: 'RULE' },
  pin: { eventPrefix: 'EVT#', seriesPrefix: 'SER#' },
  memory: {
    /** The current generation and the revision token (changes on every write). */
    pointer: 'POINTER',
    /** The project folder initialize_context was given (for .git/HEAD). */
    folder: 'FOLDER',
    /** `G#<generation>#<record key>` (see {@link MEMORY_RECORD}): the records of one generation. */
    generationPrefix: 'G#',
    /** `DROP#<generation>`: that generation is dropped unless current (core/memory/contexts/generation-drops.ts). */
    dropPrefix: 'DROP#',
  },
  memoryPath: { project: 'PROJECT' },
  memorySnapshots: {
    /** `SNAP#<snapshot id>`: one snapshot's catalog entry (ids sort by creation time). */
    snapshotPrefix: 'SNAP#',
    /** What the last cloud sync pushed or pulled, and the local state it left. */
    cloudSync: 'SYNC',
    /** Which snapshot holds exactly the state at one generation and revision (a restore's backup). */
    stateHeldBy: 'HELD',
    /** `QUOTA#<yyyy-mm-dd>#<upload|download>`: cloud syncs used on one UTC day. */
    quotaPrefix: 'QUOTA#',
    /**
     * `UNLISTED#<snapshot id>`: that snapshot's objects are being written; the sweep removes them
     * unless the catalog lists it (core/memory/snapshots/unlisted-snapshots.ts).
     */
    unlistedPrefix: 'UNLISTED#',
  },
  meta: { schemaVersion: 'VERSION' },
  user: {
    record: 'USER',
    /** `GRANT#…`: the person's rights, in the shape of an API key's grants (grant-items.ts). */
    grantPrefix: 'GRANT#',
    /** Present when the person is an administrator of the authorization server (`meridian users admin`). */
    administrator: 'ADMIN',
  },
  oauth: { record: 'OIDC' },
  oauthKey: { record: 'KEY' },
  /** Both token buckets of one caller in one item, so admitting a request is one conditional write. */
  rateLimit: { buckets: 'BUCKETS' },
  /** `REC#<sequence, 12 digits>`: one audit record; the sequence is claimed by a conditional put. */
  audit: { recordPrefix: 'REC#' },
} as const satisfies Record<PartitionKind, Record<string, string>>;

/** Partition key values of the `gsi1` index: the listings that span partitions. */
export const GSI1PK = {
  /** Every API key, sorted by `<created_at>#<key id>`. */
  apiKeys: 'KEYS',
  /** Every calendar, sorted by calendar id. */
  calendars: 'CALS',
  /** Every connection, sorted by connection id. */
  connections: 'CONNS',
  /**
   * `NCAL#<native id>#START` and `NCAL#<native id>#LONG` (see {@link NATIVE_INDEX_SUFFIX}): a
   * native calendar's one-off events by start, short and long apart. Deliberately the same text
   * as the calendar's own `pk` prefix: it is another attribute, and one id names both.
   */
  nativeCalendarPrefix: 'NCAL#',
  projects: 'PROJECTS',
  rules: 'RULES',
  /**
   * Memory pointers (`MEM#<project id>` / `POINTER`) of projects that may hold contexts to
   * compress, sorted by `gsi1sk` = the pointer's `updated_at` (the project's last write). Every
   * write puts the pointer anyway, so the index costs update_memory no write of its own; the
   * idle sweep drops a project from it once nothing is left to compress
   * (core/memory/contexts/idle-compression-sweep.ts).
   */
  idleMemory: 'MEMIDLE',
  /**
   * Markers (`MEM#<project id>` / `DROP#<generation>`) of memory generations a restore staged or
   * is replacing, sorted by `gsi1sk` = the instant after which the sweep drops the generation
   * unless it is current (core/memory/contexts/generation-drops.ts).
   */
  generationsToDrop: 'MEMDROP',
  /**
   * Markers (`MSNAP#<project id>` / `UNLISTED#<snapshot id>`) of snapshots whose objects were
   * being written, sorted by `gsi1sk` = the instant after which the sweep removes the objects
   * unless the catalog lists the snapshot (core/memory/snapshots/unlisted-snapshots.ts).
   */
  unlistedSnapshots: 'MSNAPUNLISTED',
  /** Every local person, sorted by user name. */
  users: 'USERS',
  /**
   * `OIDCGRANT#<grant id>`: the authorization server's records issued under one grant (codes,
   * refresh tokens, the grant itself), so a revoked grant takes all of them.
   */
  oauthGrantPrefix: 'OIDCGRANT#',
  /** The authorization server's stored clients (registered or pre-registered), sorted by client id. */
  oauthClients: 'OAUTHCLIENTS',
  /** The authorization server's grants (one per consent), sorted by `<account id>#<grant id>`: `meridian sessions`. */
  oauthGrants: 'OAUTHGRANTS',
  /** Clients an administrator revoked (their tombstones), sorted by client id. */
  oauthRevokedClients: 'OAUTHREVOKED',
  /** The first record of each day's audit chain, sorted by `gsi1sk` = the day: every chain `audit verify` checks. */
  auditDays: 'AUDITDAYS',
} as const;

/** What follows the native id in a native calendar's `gsi1pk`. */
export const NATIVE_INDEX_SUFFIX = {
  /** One-off events up to a day long. */
  byStart: '#START',
  /** One-off events longer than a day (few; read whole). */
  long: '#LONG',
} as const;

/**
 * The record keys inside one memory generation (after `G#<generation>#` in `sk`). Kept apart
 * from {@link SK} because snapshots carry them without the generation: a restored record lands
 * under a new generation with the same record key.
 */
export const MEMORY_RECORD = {
  /** `BR#<branch id>`: a branch (topic, parent, linked git branch, version). */
  branchPrefix: 'BR#',
  /** `ENT#<branch id>#<entry id>`: one entry of a branch's context (time-ordered ids). */
  entryPrefix: 'ENT#',
  /** `CTX#<branch id>`: a branch's context state: active, or compressed with its gzipped body. */
  contextPrefix: 'CTX#',
  /** `FILE#<path>`: a file initialize_context stored (redacted). */
  filePrefix: 'FILE#',
  /** `GIT#<git branch name>`: the memory branch a git branch is linked to. */
  gitLinkPrefix: 'GIT#',
} as const;
