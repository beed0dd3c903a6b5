import { sanitizeText } from '../../firewall/sanitize-text.js';
/**
 * Secret redaction for everything project memory stores (entries, initialised files): keys,
 * tokens, private keys, connection-string passwords. A memory is read back by agents and synced
 * to buckets; a secret that reaches it leaks further than the file it came from.
 *
 * Recognised by shape, not by entropy: a provider's token format (`ghp_…`, `AKIA…`, `xoxb-…`, also
 * split by a space: `AKIA IOSFODNN7EXAMPLE`), a PEM block, a JWT's three segments, a password
 * inside a URL, a value assigned to a name that says it is secret (`DB_PASSWORD=…`, `"apiKey": "…"`),
 * or a password written in prose ("the password for the staging db is hunter2-Xyz!"). Entropy alone would also take git SHAs,
 * UUIDs, content hashes and base64 images, which memory must keep (the corpus test holds both).
 */

export type SecretKind =
  | 'private-key'
  | 'jwt'
  | 'aws-access-key-id'
  | 'aws-secret-access-key'
  | 'github-token'
  | 'gitlab-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'stripe-key'
  | 'google-api-key'
  | 'google-oauth-token'
  | 'google-client-secret'
  | 'openai-api-key'
  | 'anthropic-api-key'
  | 'npm-token'
  | 'sendgrid-key'
  | 'azure-account-key'
  | 'bearer-token'
  | 'url-password'
  | 'connection-string-password'
  | 'secret-assignment'
  | 'prose-password';

export interface RedactionResult {
  /** The text with every secret replaced by `[REDACTED:<kind>]`. */
  text: string;
  /** How many secrets of each kind were replaced, by kind; empty when none. */
  redactions: { kind: SecretKind; count: number }[];
}

interface SecretRule {
  kind: SecretKind;
  pattern: RegExp;
  /** The capture group holding the secret; the rest of the match is kept. @default the whole match */
  group?: number;
  /** False for matches that are placeholders or code rather than a secret. */
  accept?: (secret: string, match: RegExpExecArray) => boolean;
}

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

// Names that say their value is secret, as one word or as a compound (snake, kebab, camel case).
const SECRET_NAME =
  '[A-Za-z0-9_.-]{0,64}?(?:passwords?|passwd|passphrase|secrets?|tokens?|api[_-]?keys?|access[_-]?keys?|' +
  'private[_-]?keys?|secret[_-]?keys?|signing[_-]?keys?|encryption[_-]?keys?|master[_-]?keys?|credentials?|auth[_-]?keys?)';

/** Ordered: provider formats first, so the generic assignment rule never hides a more precise kind. */
const RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
  {
    kind: 'aws-access-key-id',
    // A space or hyphen between characters (pasted from a wrapped line, or split on purpose)
    // still makes a key: "AKIA IOSFODNN7EXAMPLE".
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)(?:[ \t-]?[A-Z2-7]){16}\b/g,
  },
  {
    kind: 'aws-secret-access-key',
    // The name in code (`aws_secret_access_key=`) or in prose ("the AWS secret key is …"); the
    // 40 characters may be split by single spaces too, one of them even replaced by the space.
    pattern:
      /((?:aws[_ ]?secret[_ ]?access[_ ]?key|aws[_ ]?secret[_ ]?key|secret[_ ]?access[_ ]?key)["']?(?:\s*[:=]|\s+is)\s*["']?)([A-Za-z0-9/+=](?:[ \t]?[A-Za-z0-9/+=]){38,39})(?![A-Za-z0-9/+=])/gi,
    group: 2,
  },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,244})\b/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'slack-webhook',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g,
  },
  { kind: 'slack-token', pattern: /\b(?:xox[abposre]|xapp)-(?:[0-9]+-)*[A-Za-z0-9-]{10,}/g },
  {
    kind: 'stripe-key',
    pattern: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})/g,
  },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'google-oauth-token', pattern: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|1\/\/0[0-9A-Za-z_-]{30,})/g },
  { kind: 'google-client-secret', pattern: /\bGOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])/g },
  { kind: 'anthropic-api-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{32,}/g },
  { kind: 'openai-api-key', pattern: /\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{32,}/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g },
  { kind: 'azure-account-key', pattern: /(AccountKey=)([A-Za-z0-9+/]{40,}={0,2})/g, group: 2 },
  {
    kind: 'bearer-token',
    pattern:
      /(\bAuthorization["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|token)\s+)([A-Za-z0-9._~+/=-]{16,})/gi,
    group: 2,
  },
  {
    kind: 'url-password',
    // scheme://user:password@host: the password alone goes, the user and host stay useful.
    // The scheme is bounded and must start where no scheme character precedes it: an unbounded
    // `\b…*` would rescan from every `.` or `-` of a long token (quadratic, seconds per 100 kB).
    pattern:
      /((?<![a-zA-Z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]{0,31}:\/\/[^\s:/@'"]{0,256}:)([^\s@/'"]{1,256})(@[^\s/@'"]+)/g,
    group: 2,
    accept: (secret) => !isPlaceholder(secret),
  },
  {
    kind: 'connection-string-password',
    // ADO.NET / JDBC style `…;Password=…;`: a `;` before or after tells it from code (`password = x`).
    pattern: /((?:;\s*|(?:^|["'\s])(?=(?:Password|Pwd)=[^;'"\s]+;))(?:Password|Pwd)=)([^;'"\s]+)/gim,
    group: 2,
    accept: (secret) => !isPlaceholder(secret),
  },
  {
    kind: 'secret-assignment',
    // NAME=value, NAME: value, "name": "value", name = 'value' — where the name says "secret".
    pattern: new RegExp(
      `((?:^|[^A-Za-z0-9_.-])(["']?)${SECRET_NAME}\\2\\s*(?::=|=>|[:=])\\s*)(["'\`]?)([^\\s"'\`,;]+)`,
      'gim',
    ),
    group: 4,
    accept: (secret, match) => looksLikeSecretValue(secret, match[3] !== ''),
  },
  {
    kind: 'prose-password',
    // "the password for the staging db is hunter2-Xyz!", "…for the staging db: x", "pwd: x",
    // "passcode = x". After the assignments above (`password: x` is theirs), whose redactions it skips.
    pattern:
      /(\b(?:(?:password|passwd|passphrase|passcode|pwd)\b(?:\s+(?:for|to|of|on|at)\s+[^\n.:=]{1,60}?)?\s+(?:is|was|remains|will be|should be)\b|(?:password|passwd|passphrase|passcode|pwd)\s+(?:for|to|of|on|at)\s+[^\n.:=]{1,60}?\s*[:=]|(?:passcode|pwd)\s*[:=])\s*)(["'“‘`]?)([^\s"'”’`]{0,199}[^\s"'”’`.,;:)])/gi,
    group: 3,
    accept: (secret, match) => looksLikeProsePassword(secret, match[2] !== ''),
  },
];

/** Every kind of secret the rules recognise, in the order they are applied. */
export const SECRET_KINDS: readonly SecretKind[] = RULES.map((rule) => rule.kind);

/**
 * Replaces every secret in `text` with a marker naming its kind, and counts what it replaced.
 * Invisible and control characters are stripped first (the content firewall's `sanitizeText`):
 * memory text is read later by other agents and people, and such characters hide text from them
 * — a zero-width space inside a key also hid the key from every pattern here.
 *
 * @example
 * redactSecrets('DATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app').text
 * // 'DATABASE_URL=postgres://app:[REDACTED:url-password]@db:5432/app'
 */
export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<SecretKind, number>();
  let current = sanitizeText(text).text;
  for (const rule of RULES) {
    let redacted = '';
    let kept = 0;
    for (const match of current.matchAll(withIndices(rule.pattern))) {
      const [start, end] = match.indices![rule.group ?? 0]!;
      const secret = current.slice(start, end);
      if (secret.startsWith('[REDACTED:') || (rule.accept && !rule.accept(secret, match))) continue;
      redacted += current.slice(kept, start) + redactionMarker(rule.kind);
      kept = end;
      counts.set(rule.kind, (counts.get(rule.kind) ?? 0) + 1);
    }
    current = redacted + current.slice(kept);
  }
  return {
    text: current,
    redactions: [...counts]
      .map(([kind, count]) => ({ kind, count }))
      .sort((a, b) => a.kind.localeCompare(b.kind)),
  };
}

/** The same pattern with the `d` flag, so each group's position in the text is known. */
function withIndices(pattern: RegExp): RegExp {
  return pattern.hasIndices ? pattern : new RegExp(pattern.source, `${pattern.flags}d`);
}

const PLACEHOLDER =
  /^(?:\$\{\{?[^}]*\}\}?|\$[A-Za-z_][A-Za-z0-9_]*|\{\{[^}]*\}\}|%[A-Za-z_]+%|<[^>]*>|\*+|x{3,}|X{3,}|\.{3}|…)$/;

/** `${DB_PASSWORD}`, `$TOKEN`, `{{ secret }}`, `<your-key>`, `****`, `xxx`: references, not values. */
function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || value.startsWith('${') || value.startsWith('{{') || value.startsWith('<');
}

/**
 * Whether the word after "the password is" is a password rather than prose or code ("is required",
 * "is stored in Vault", "is 12+ chars", "= newPassword"): quoted, or a value that is not code and
 * is long enough to carry a digit or a symbol, as chosen passwords do. A path ("pwd: /home") is not.
 */
function looksLikeProsePassword(value: string, quoted: boolean): boolean {
  if (/^[/~]/.test(value) || !looksLikeSecretValue(value, quoted)) return false;
  return quoted || (value.length >= 6 && /[0-9]|[^A-Za-z0-9]/.test(value));
}

// Type names and literals that follow `password:` in code and schemas.
const NOT_SECRET_WORDS = new Set(
  'true false null none nil undefined required optional string str number int bytes boolean bool object any'.split(
    ' ',
  ),
);

/**
 * Whether the value assigned to a secret-sounding name is a secret rather than code or config
 * about the secret: `password: hunter2` and `API_KEY="abc123…"` are; `password = getPassword()`,
 * `token: string`, `TOKEN_TTL=3600`, `secret: ${{ secrets.X }}` and `apiKey: config.apiKey` are not.
 */
function looksLikeSecretValue(value: string, quoted: boolean): boolean {
  if (isPlaceholder(value) || value.length < 4) return false;
  if (NOT_SECRET_WORDS.has(value.toLowerCase())) return false;
  if (/^\d+(?:\.\d+)?[smhd]?$/.test(value)) return false;
  if (/[()[\]{}<>]/.test(value)) return false;
  if (
    /^(?:process\.env|os\.environ|env|secrets|vars|config|settings|self|this|props|ctx|req)\b/.test(value)
  ) {
    return false;
  }
  if (quoted) return true;
  // Unquoted, a bare identifier or member access is code (`token = nextToken`, `key: string`)
  // unless it carries a digit the way passwords and keys do (`hunter2`, `s3cr3t`).
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(value))
    return /\d/.test(value) && !value.includes('.');
  return true;
}
