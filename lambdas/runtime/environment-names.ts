/**
 * The name of every environment variable Meridian reads or sets, spelled once: the runtimes read
 * them, the CDK constructs (lib/) set them, and a rename in one place cannot leave the other
 * behind. test/runtime/environment-names.test.ts fails on a name spelled anywhere else in
 * lambdas/, bin/ or lib/. Names only; parsing stays beside its reader. Imports nothing, so the
 * MCP function's cold start can read it before the object graph loads.
 */

// Set by the CDK stack on every function that builds the object graph.

/** The table the document store reads and writes. */
export const TABLE_NAME_ENV = 'MERIDIAN_TABLE_NAME';
/** The KMS key that wraps the Encryption SDK's data keys. */
export const DATA_KEY_ARN_ENV = 'MERIDIAN_DATA_KEY_ARN';
/** The booking state machine's ARN (set on the MCP function). */
export const BOOKING_STATE_MACHINE_ARN_ENV = 'MERIDIAN_BOOKING_STATE_MACHINE_ARN';
/** The bucket the blob store keeps project memory in (set on the MCP function). */
export const MEMORY_BUCKET_NAME_ENV = 'MERIDIAN_MEMORY_BUCKET_NAME';
/** The Object Lock bucket the audit log is exported to (set on the audit export function). */
export const AUDIT_EXPORT_BUCKET_ENV = 'MERIDIAN_AUDIT_EXPORT_BUCKET';
/**
 * Which embedder project memory's search uses: `local` (the default, nothing downloaded) or
 * `bedrock` (Amazon Titan Text Embeddings v2; set by `-c embeddings=bedrock`).
 */
export const EMBEDDINGS_ENV = 'MERIDIAN_EMBEDDINGS';
/** Titan v2's vector length with `bedrock`: 1024 (default), 512 or 256. */
export const EMBEDDING_DIMENSION_ENV = 'MERIDIAN_EMBEDDING_DIMENSION';
/** A Bedrock Runtime endpoint instead of AWS's, e.g. a test server. */
export const BEDROCK_ENDPOINT_ENV = 'MERIDIAN_BEDROCK_ENDPOINT';
/** Powertools' service name: which function a log line came from. */
export const SERVICE_NAME_ENV = 'POWERTOOLS_SERVICE_NAME';

// Set by Lambda on every function (and by AWS tooling on a laptop): read for the table's own
// client (adapters/dynamodb/dynamodb-http-client.ts, ADR 0028); the SDK's clients read them itself.

/** The region the function runs in. */
export const AWS_REGION_ENV = 'AWS_REGION';
/** The region, as older AWS tooling names it; AWS_REGION wins. */
export const AWS_DEFAULT_REGION_ENV = 'AWS_DEFAULT_REGION';
/** The role's access key id, secret and session token (Lambda's, or a shell's). */
export const AWS_ACCESS_KEY_ID_ENV = 'AWS_ACCESS_KEY_ID';
export const AWS_SECRET_ACCESS_KEY_ENV = 'AWS_SECRET_ACCESS_KEY';
export const AWS_SESSION_TOKEN_ENV = 'AWS_SESSION_TOKEN';
/** DynamoDB's endpoint instead of AWS's (DynamoDB Local, dynalite); then any service's. */
export const AWS_ENDPOINT_URL_DYNAMODB_ENV = 'AWS_ENDPOINT_URL_DYNAMODB';
export const AWS_ENDPOINT_URL_ENV = 'AWS_ENDPOINT_URL';
/** `true`: AWS's FIPS endpoints. */
export const AWS_USE_FIPS_ENDPOINT_ENV = 'AWS_USE_FIPS_ENDPOINT';

// Read by both runtimes.

/** The deployment's default IANA zone; unset means UTC, reported as `timezone_configured: false`. */
export const TIMEZONE_ENV = 'MERIDIAN_TIMEZONE';
/** Browser origins allowed to call MCP (comma-separated). */
export const ALLOWED_ORIGINS_ENV = 'MERIDIAN_ALLOWED_ORIGINS';
/**
 * The URL people and MCP clients reach `serve` at (`https://meridian.example.com`), when it is not
 * the listen address (a reverse proxy in front): the OAuth issuer and the MCP URL's origin.
 */
export const PUBLIC_URL_ENV = 'MERIDIAN_PUBLIC_URL';
/**
 * The organization's OpenID Connect issuer people sign in at (a Cognito user pool, Okta, Entra ID,
 * Google Workspace), when they do not sign in with `meridian users` passwords. Meridian stays the
 * authorization server MCP clients talk to, and is this issuer's client (ADR 0013).
 */
export const SIGN_IN_ISSUER_ENV = 'MERIDIAN_SIGN_IN_ISSUER';
/** Meridian's client id at the sign-in issuer. */
export const SIGN_IN_CLIENT_ID_ENV = 'MERIDIAN_SIGN_IN_CLIENT_ID';
/** Its client secret, given directly (embedded). None for a public client (PKCE only). */
export const SIGN_IN_CLIENT_SECRET_ENV = 'MERIDIAN_SIGN_IN_CLIENT_SECRET';
/** Its client secret, as the ARN of a Secrets Manager secret (AWS). None for a public client. */
export const SIGN_IN_CLIENT_SECRET_ARN_ENV = 'MERIDIAN_SIGN_IN_CLIENT_SECRET_ARN';
/**
 * `on` when the stack deployed Meridian's authorization server (its OAuth function, ADR 0026): the
 * MCP function then accepts its access tokens beside API keys and its 401s name it; it needs
 * MERIDIAN_PUBLIC_URL. Default `off`: API keys only. The embedded `serve` has sign-in always.
 */
export const OAUTH_TOKENS_ENV = 'MERIDIAN_OAUTH_TOKENS';
/** Seconds one MCP call (one HTTP request) may run before it stops: 1–900, default 30. */
export const CALL_DEADLINE_SECONDS_ENV = 'MERIDIAN_CALL_DEADLINE_SECONDS';
/** Events, occurrences and stored items one call may read or expand: 1,000–10,000,000, default 50,000. */
export const CALL_WORK_ITEMS_ENV = 'MERIDIAN_CALL_WORK_ITEMS';
/** Records one project's memory may hold (entries, files, branches, links): 100–10,000,000, default 20,000. */
export const MEMORY_MAX_ITEMS_ENV = 'MERIDIAN_MEMORY_MAX_ITEMS';
/**
 * Each API key's request budget, `COUNT/PERIOD` (`600/60s`, `120/min`) or `off`; default 600/60s.
 * A key's own (`meridian keys limits`) takes precedence.
 */
export const RATE_LIMIT_ENV = 'MERIDIAN_RATE_LIMIT';
/** The stricter budget of the expensive tools (mcp/expensive-tools.ts), as above; default 60/60s. */
export const EXPENSIVE_RATE_LIMIT_ENV = 'MERIDIAN_EXPENSIVE_RATE_LIMIT';
/** `off` turns the audit log off (benchmarks only); default on. */
export const AUDIT_ENV = 'MERIDIAN_AUDIT';
/** Lifetime of a booking's hold on its slot, in seconds. */
export const LOCK_TTL_SECS_ENV = 'LOCK_TTL_SECS';
/** The Google OAuth client ("Desktop app") that connected accounts refresh their tokens with. */
export const GOOGLE_CLIENT_ID_ENV = 'MERIDIAN_GOOGLE_CLIENT_ID';
export const GOOGLE_CLIENT_SECRET_ENV = 'MERIDIAN_GOOGLE_CLIENT_SECRET';
/** Overrides of Google's endpoints, for tests and private deployments that proxy Google. */
export const GOOGLE_API_ROOT_ENV = 'MERIDIAN_GOOGLE_API_ROOT';
export const GOOGLE_TOKEN_URL_ENV = 'MERIDIAN_GOOGLE_TOKEN_URL';
export const GOOGLE_AUTH_URL_ENV = 'MERIDIAN_GOOGLE_AUTH_URL';
/** The Microsoft Entra app registration (public client) Outlook accounts sign in and refresh with. */
export const OUTLOOK_CLIENT_ID_ENV = 'MERIDIAN_OUTLOOK_CLIENT_ID';
/** `https://login.microsoftonline.com/<tenant>`; default tenant `organizations` (any work account). */
export const OUTLOOK_AUTHORITY_ENV = 'MERIDIAN_OUTLOOK_AUTHORITY';
/** Override of Graph's root (`https://graph.microsoft.com/v1.0`), for tests. */
export const OUTLOOK_GRAPH_ROOT_ENV = 'MERIDIAN_OUTLOOK_GRAPH_ROOT';

// Read by the embedded runtime and the CLI.

/** Where the embedded runtime keeps its data. */
export const DATA_DIR_ENV = 'MERIDIAN_DATA_DIR';
/** Where `meridian serve` listens. */
export const HTTP_HOST_ENV = 'HTTP_HOST';
export const HTTP_PORT_ENV = 'HTTP_PORT';
/** How often `meridian serve` syncs connected calendars, in minutes (0: never). */
export const SYNC_INTERVAL_MINUTES_ENV = 'MERIDIAN_SYNC_INTERVAL_MINUTES';
/** How often `serve` and `stdio` compress idle memory contexts, in minutes (0: never). */
export const MEMORY_COMPRESSION_INTERVAL_MINUTES_ENV = 'MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES';
/**
 * Folders on this machine whose project folders remote callers (API keys) may have `serve` read
 * (path-delimiter separated, like PATH); unset: only the local owner's calls read folders.
 */
export const SCAN_FOLDERS_ENV = 'MERIDIAN_SCAN_FOLDERS';
/** A CalDAV password for `meridian connect caldav`, instead of the prompt. */
export const CALDAV_PASSWORD_ENV = 'MERIDIAN_CALDAV_PASSWORD';
/** Set by CI systems: `meridian sync` then prints plain lines instead of progress bars. */
export const CI_ENV = 'CI';

// Cloud sync of project memory (both runtimes; README, "Cloud sync of project memory").

/** The organisation's S3 bucket that project memory syncs through; unset: no cloud sync. */
export const MEMORY_SYNC_BUCKET_ENV = 'MERIDIAN_MEMORY_SYNC_BUCKET';
/** An S3-compatible endpoint instead of AWS's (path-style), e.g. a test server. */
export const MEMORY_SYNC_ENDPOINT_ENV = 'MERIDIAN_MEMORY_SYNC_ENDPOINT';
/** The KMS key that encrypts what is uploaded (shared by every server of the organisation)… */
export const MEMORY_SYNC_KMS_KEY_ARN_ENV = 'MERIDIAN_MEMORY_SYNC_KMS_KEY_ARN';
/** …or a 32-byte key file (0600) copied to every machine, created on first use. */
export const MEMORY_SYNC_KEY_FILE_ENV = 'MERIDIAN_MEMORY_SYNC_KEY_FILE';
/** Daily allowances per project (default 100 uploads, 20 downloads). */
export const MEMORY_SYNC_UPLOADS_PER_DAY_ENV = 'MERIDIAN_MEMORY_SYNC_UPLOADS_PER_DAY';
export const MEMORY_SYNC_DOWNLOADS_PER_DAY_ENV = 'MERIDIAN_MEMORY_SYNC_DOWNLOADS_PER_DAY';
