import type { SecretKind } from '../../../lambdas/core/memory/store/redact-secrets.js';

/**
 * The redaction corpus. Secrets are assembled at run time from a seeded generator, so this file
 * holds no string that a secret scanner (or a reader) would take for a live credential, while
 * each value still has its provider's exact shape.
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = `${ALNUM}_-`;
const BASE64 = `${ALNUM}+/`;
const BASE32 = `${UPPER}234567`;

let state = 20_261_123;
/** mulberry32: a small, well-mixed 32-bit generator, seeded so the corpus is the same on every run. */
function next(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return (t ^ (t >>> 14)) >>> 0;
}
/** `length` characters of `alphabet`, pseudo-random. */
function fake(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[next() % alphabet.length];
  return out;
}
const b64url = (value: string) => Buffer.from(value).toString('base64url');
const jwt = () =>
  `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${fake(8, DIGITS)}","name":"Ada"}`)}.${fake(43, URLSAFE)}`;
const pem = (label: string) =>
  `-----BEGIN ${label}-----\n${fake(64, BASE64)}\n${fake(64, BASE64)}\n${fake(20, BASE64)}=\n-----END ${label}-----`;
const awsKeyId = (prefix = 'AKIA') => prefix + fake(16, BASE32);
const awsSecret = () => fake(40, BASE64);

export interface SecretSample {
  text: string;
  /** The kinds the text's secrets must be reported as. */
  kinds: SecretKind[];
  /** Text around the secret that must survive redaction (the key name, the host …). */
  keeps?: string[];
}

const S = (text: string, kinds: SecretKind[], keeps: string[] = []): SecretSample => ({ text, kinds, keeps });

export const SECRETS: readonly SecretSample[] = [
  // Private keys
  S(pem('RSA PRIVATE KEY'), ['private-key']),
  S(pem('PRIVATE KEY'), ['private-key']),
  S(pem('EC PRIVATE KEY'), ['private-key']),
  S(pem('OPENSSH PRIVATE KEY'), ['private-key']),
  S(
    `deploy key:\n${pem('ENCRYPTED PRIVATE KEY')}\nrotate yearly`,
    ['private-key'],
    ['deploy key:', 'rotate yearly'],
  ),
  S(pem('PGP PRIVATE KEY BLOCK'), ['private-key']),
  S(`-----BEGIN RSA PRIVATE KEY-----\n${fake(64, BASE64)}\n(truncated)`, ['private-key']),
  // JWTs
  S(jwt(), ['jwt']),
  S(`curl -H "X-Session: ${jwt()}" https://api.internal`, ['jwt'], ['curl -H', 'https://api.internal']),
  S(`id_token=${jwt()}`, ['jwt']),
  // AWS
  S(awsKeyId(), ['aws-access-key-id']),
  S(`AWS_ACCESS_KEY_ID=${awsKeyId()}`, ['aws-access-key-id'], ['AWS_ACCESS_KEY_ID=']),
  S(`aws_access_key_id = ${awsKeyId('ASIA')}`, ['aws-access-key-id']),
  S(`aws_secret_access_key = ${awsSecret()}`, ['aws-secret-access-key'], ['aws_secret_access_key = ']),
  S(`AWS_SECRET_ACCESS_KEY="${awsSecret()}"`, ['aws-secret-access-key']),
  S(`{"AccessKeyId": "${awsKeyId()}", "SecretAccessKey": "${awsSecret()}"}`, [
    'aws-access-key-id',
    'aws-secret-access-key',
  ]),
  // GitHub, GitLab
  S(`ghp_${fake(36)}`, ['github-token']),
  S(
    `git clone https://x-access-token:ghs_${fake(36)}@github.com/org/repo.git`,
    ['github-token'],
    ['github.com/org/repo.git'],
  ),
  S(`GH_TOKEN=gho_${fake(36)}`, ['github-token']),
  S(`github_pat_${fake(22)}_${fake(59)}`, ['github-token']),
  S(`token ghu_${fake(36)} expires soon`, ['github-token'], ['expires soon']),
  S(`CI_JOB: glpat-${fake(20, URLSAFE)}`, ['gitlab-token']),
  // Slack
  S(`xoxb-${fake(12, DIGITS)}-${fake(13, DIGITS)}-${fake(24)}`, ['slack-token']),
  S(
    `SLACK_USER_TOKEN=xoxp-${fake(12, DIGITS)}-${fake(12, DIGITS)}-${fake(13, DIGITS)}-${fake(32, LOWER + DIGITS)}`,
    ['slack-token'],
  ),
  S(
    `webhook: https://hooks.slack.com/services/T${fake(8, UPPER + DIGITS)}/B${fake(10, UPPER + DIGITS)}/${fake(24)}`,
    ['slack-webhook'],
  ),
  S(`xapp-1-A${fake(10, UPPER + DIGITS)}-${fake(13, DIGITS)}-${fake(64, LOWER + DIGITS)}`, ['slack-token']),
  // Stripe
  S(`sk_live_${fake(24)}`, ['stripe-key']),
  S(`STRIPE_SECRET_KEY=sk_test_${fake(99)}`, ['stripe-key']),
  S(`rk_live_${fake(24)}`, ['stripe-key']),
  S(`endpoint secret whsec_${fake(32)}`, ['stripe-key'], ['endpoint secret']),
  // Google
  S(`AIza${fake(35, URLSAFE)}`, ['google-api-key']),
  S(
    `https://maps.googleapis.com/maps/api/js?key=AIza${fake(35, URLSAFE)}&callback=init`,
    ['google-api-key'],
    ['&callback=init'],
  ),
  S(`access_token: ya29.${fake(120, URLSAFE)}`, ['google-oauth-token']),
  S(`refresh token 1//0${fake(60, URLSAFE)}`, ['google-oauth-token']),
  S(`client_secret: GOCSPX-${fake(28, URLSAFE)}`, ['google-client-secret']),
  // AI providers, package registries, mail
  S(`OPENAI_API_KEY=sk-proj-${fake(48, URLSAFE)}`, ['openai-api-key']),
  S(`sk-${fake(48)}`, ['openai-api-key']),
  S(`ANTHROPIC_API_KEY=sk-ant-api03-${fake(90, URLSAFE)}`, ['anthropic-api-key']),
  S(`//registry.npmjs.org/:_authToken=npm_${fake(36)}`, ['npm-token'], ['//registry.npmjs.org/:_authToken=']),
  S(`SG.${fake(22, URLSAFE)}.${fake(43, URLSAFE)}`, ['sendgrid-key']),
  // Azure, connection strings, URLs with passwords
  S(
    `DefaultEndpointsProtocol=https;AccountName=prodlogs;AccountKey=${fake(86, BASE64)}==;EndpointSuffix=core.windows.net`,
    ['azure-account-key'],
    ['DefaultEndpointsProtocol=https', 'AccountName=prodlogs', 'EndpointSuffix=core.windows.net'],
  ),
  S(
    'DATABASE_URL=postgres://app:Xk29-pq!w@db.internal:5432/app',
    ['url-password'],
    ['postgres://app:', '@db.internal:5432/app'],
  ),
  S(
    'mongodb+srv://admin:Tr0ub4dor3@cluster0.abcde.mongodb.net/test?retryWrites=true',
    ['url-password'],
    ['admin'],
  ),
  S('redis://:supersecret@cache:6379/0', ['url-password'], ['@cache:6379/0']),
  S('amqp://guest:r4bb1t-pw@mq.local:5672/', ['url-password']),
  S('mysql://root:changeme123@127.0.0.1:3306/shop', ['url-password']),
  S('proxy is http://proxyuser:pr0xy-pass@10.0.0.5:3128 for builds', ['url-password'], ['for builds']),
  S(
    'Server=sql.prod;Database=Billing;User Id=sa;Password=P@ssw0rd!;',
    ['connection-string-password'],
    ['User Id=sa;'],
  ),
  S('jdbc:sqlserver://db:1433;databaseName=hr;user=svc;password=Wint3r2024;encrypt=true', [
    'connection-string-password',
  ]),
  // Authorization headers
  S(`Authorization: Bearer ${fake(40, URLSAFE)}`, ['bearer-token'], ['Authorization: Bearer ']),
  S(`curl -H 'Authorization: Basic ${Buffer.from('deploy:s3cret-pass').toString('base64')}' https://ci`, [
    'bearer-token',
  ]),
  S(`headers = {"Authorization": "Token ${fake(40, LOWER + DIGITS)}"}`, ['bearer-token']),
  // .env lines and assignments
  S('DB_PASSWORD=hunter2-prod', ['secret-assignment'], ['DB_PASSWORD=']),
  S('export JWT_SECRET="k9$Lm2#pQ7vX"', ['secret-assignment'], ['export JWT_SECRET="']),
  S(`SESSION_SECRET=${fake(32, LOWER + DIGITS)}`, ['secret-assignment']),
  S('SMTP_PASS=unused\nSMTP_PASSWORD=mailpass42', ['secret-assignment'], ['SMTP_PASS=unused']),
  S(`API_KEY=${fake(32, LOWER + DIGITS)}`, ['secret-assignment']),
  S(`WEBHOOK_SIGNING_KEY=${fake(40, BASE64)}`, ['secret-assignment']),
  S('password: hunter2', ['secret-assignment'], ['password: ']),
  S(
    '  db:\n    user: app\n    password: "c0rrect-h0rse"\n    host: db',
    ['secret-assignment'],
    ['user: app', 'host: db'],
  ),
  S(
    `{"client_secret": "${fake(24)}", "client_id": "web-app"}`,
    ['secret-assignment'],
    ['"client_id": "web-app"'],
  ),
  S(`const apiKey = '${fake(32, LOWER + DIGITS)}';`, ['secret-assignment'], ['const apiKey = ']),
  S(`accessToken: "${fake(40, URLSAFE)}"`, ['secret-assignment']),
  S(`ENCRYPTION_KEY=${fake(44, BASE64)}`, ['secret-assignment']),
  S('ADMIN_PASSPHRASE=orange-tiger-42-lamp', ['secret-assignment']),
  S(`private_key = "${fake(64, `${DIGITS}abcdef`)}"`, ['secret-assignment']),
  S('credentials: s3cr3t!value', ['secret-assignment']),
  S(`settings.SECRET_KEY = "${fake(50)}"`, ['secret-assignment']),
  S(`MASTER_KEY=${fake(32)} # do not share`, ['secret-assignment'], ['# do not share']),
  // Passwords in prose, keys split by a space (issue 18: both came back from three tools)
  S(
    'the password for the staging db is hunter2-Xyz!',
    ['prose-password'],
    ['the password for the staging db is '],
  ),
  S('The password is "changeme" until Friday.', ['prose-password'], ['until Friday.']),
  S('pwd: Tr0ub4dor&3', ['prose-password'], ['pwd: ']),
  S('Our VPN passcode is 7731-Blue, rotate it monthly.', ['prose-password'], [', rotate it monthly.']),
  S('My old password was S3cure!Pass.', ['prose-password']),
  S('AWS key AKIA IOSFODNN7EXAMPLE for the deploy user', ['aws-access-key-id'], ['for the deploy user']),
  S(`aws_secret_access_key = ${awsSecret().replace(/^(.{20})/, '$1 ')}`, ['aws-secret-access-key']),
  S('The AWS secret access key is wJalrXUtnFEMI/K7MDENG/bPxRfi CYEXAMPLEKEY', ['aws-secret-access-key']),
  // Several in one text
  S(`AWS_ACCESS_KEY_ID=${awsKeyId()}\nAWS_SECRET_ACCESS_KEY=${awsSecret()}\nGITHUB_TOKEN=ghp_${fake(36)}`, [
    'aws-access-key-id',
    'aws-secret-access-key',
    'github-token',
  ]),
];

/** Ordinary project text: code, config, prose with hashes, ids and encodings. Must stay as is. */
export const ORDINARY: readonly string[] = [
  // Git and hashes
  'Fixed in 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f (see PR #482).',
  'git cherry-pick a1b2c3d4',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Ada <ada@example.com>',
  'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'integrity: sha512-Q2h1bmtlZCBpbnRlZ3JpdHkgaGFzaCBmb3IgdGhlIHBhY2thZ2UgaW4gbG9ja2ZpbGU=',
  'md5 of the archive: 9e107d9d372bb6826bd81d3542a419d6',
  'The ETag is "d41d8cd98f00b204e9800998ecf8427e".',
  'Docker image digest sha256:4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  // UUIDs and ids
  'Project id 3d9f2c1e-7b4a-4f6e-9c2d-1a8b7e6f5d4c was archived.',
  'request_id=7c9e6679-7425-40de-944b-e07fc1f90ae7 status=200',
  'arn:aws:dynamodb:eu-west-1:123456789012:table/meridian-prod',
  'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
  'The S3 bucket meridian-prod-data-memorybucket-1x2y3z4w is versioned.',
  'Ticket JIRA-4821 tracks the flaky test.',
  'ULID 01ARZ3NDEKTSV4RRFFQ69G5FAV orders by time.',
  // Encodings
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'The favicon is inlined as data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64 of "hello world" is aGVsbG8gd29ybGQ=',
  'const header = Buffer.from(\'{"alg":"none"}\').toString(\'base64url\');',
  // Code that talks about secrets without holding any
  'const token = await getToken();',
  'password = newPassword',
  'if (!apiKey) throw new Error("Set OPENAI_API_KEY before running the agent.");',
  'const { secret } = await secretsManager.getSecretValue({ SecretId: name });',
  'function hashPassword(password: string): Promise<string> {',
  'tokens = tokenizer.encode(text)',
  'MAX_TOKENS=4096',
  'TOKEN_TTL_SECONDS=3600',
  'PASSWORD_MIN_LENGTH=12',
  'apiKey: config.apiKey,',
  'token: process.env.GITHUB_TOKEN',
  'password: string;',
  'secret?: Uint8Array',
  'accessToken: undefined,',
  'const password = "";',
  'if token is None:\n    raise RuntimeError("no token")',
  'def rotate_secret(secret_id):',
  'refreshToken: tokens.refresh_token,',
  '<input type="password" name="password" placeholder="Password">',
  'label: "API key"',
  'echo "token: $TOKEN"',
  'kubectl create secret generic db --from-literal=password=$DB_PASSWORD',
  // Config with references, placeholders and ordinary values
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell/CI placeholder, meant literally
  'DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell/CI placeholder, meant literally
  'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
  'password: {{ vault_db_password }}',
  'api_key: <your-api-key>',
  'API_KEY=xxxxxxxxxxxxxxxx',
  'password: ********',
  'LOG_LEVEL=debug\nPORT=8080\nNODE_ENV=production',
  'MERIDIAN_TABLE_NAME=meridian-prod-table',
  'region: eu-west-1\nruntime: nodejs22.x\nmemorySize: 1024',
  '"scripts": { "test": "vitest run", "lint": "biome check ." }',
  'https://github.com/org/repo/blob/main/README.md#install',
  'postgres://localhost:5432/app',
  'ssh git@github.com:org/repo.git',
  'mailto:ops@example.com',
  'Server=sql.prod;Database=Billing;Integrated Security=true;',
  'KeySpec: SYMMETRIC_DEFAULT',
  'primary_key: id\nsort_key: created_at',
  'aws_region = "eu-west-1"',
  'AWS_DEFAULT_REGION=us-east-1',
  // Prose
  'We decided to rotate the Stripe keys every 90 days and keep them in Secrets Manager.',
  "The JWT is validated against the issuer's JWKS; never log the token itself.",
  'Bug: the login form sent the password in the query string. Fixed by switching to POST.',
  'Authorization: Bearer tokens are checked by the API Gateway authorizer.',
  'Use `sk_test_` keys in staging; live keys never leave the vault.',
  'The private key lives in KMS and never leaves it.',
  'AKIA keys are long-lived; prefer roles.',
  'Version 2.4.1 fixed CVE-2024-3094 in xz.',
  'Meeting notes: Ada will own the token refresh bug (#512).',
  'The word "secret" appears in the UI copy: "Keep this secret".',
  'Token budget: 25k per listing, measured with o200k.',
  'The password policy requires 12 characters and a second factor.',
  'Reset your password at https://id.example.com/reset before Monday.',
  'The password is required; the form refuses an empty one.',
  'The password is stored in Vault, never in the repo.',
  'If the password is wrong three times, the account locks.',
  'The password for prod is in 1Password.',
  'pwd: /home/ann/shop',
  'Your password is expired; change it at the portal.',
  'The password field is optional in the signup form.',
  'Passphrase length: at least 5 words.',
];
