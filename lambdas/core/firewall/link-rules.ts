import type { MatchViews } from './match-views.js';
import type { FirewallRule } from './rule.js';

/*
 * Links that carry data out. A markdown image is fetched by the client that renders it, with no
 * click, so an image whose address an agent fills in ("…/collect?d={{secret}}") sends the data the
 * moment the answer is shown; a link does the same on one click. Ordinary links and badges
 * ("[docs](https://…)", "![build](https://img.shields.io/…?style=flat)") pass: only an address
 * built to be filled with secrets or user data, or an image with an empty slot at its end, fires.
 */

/**
 * Words that name what an attacker wants in a placeholder: `{{user_api_key}}`, `${SECRET}`,
 * `<conversation>`. A REST template's `{id}`, `{owner}` or `{date}` does not name any.
 */
const SENSITIVE_WORDS = new Set(
  (
    'token tokens secret secrets password passwords passwd pwd passphrase credential credentials creds ' +
    'cookie cookies session apikey conversation chat history prompt memory context summary messages emails ' +
    'inbox contacts data userdata ssn otp mfa'
  ).split(' '),
);
/** `…_key` is a secret after these words (`api_key`, `secret_key`); a bare `{key}` is an S3 object. */
const KEY_OWNERS = new Set(
  'api access secret private auth signing user session encryption master'.split(' '),
);

/** The words of a placeholder name: snake, kebab, dotted and camel case split, lowercased. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function isSensitiveName(name: string): boolean {
  const words = nameWords(name);
  return words.some(
    (word, i) => SENSITIVE_WORDS.has(word) || (word === 'key' && i > 0 && KEY_OWNERS.has(words[i - 1]!)),
  );
}

/** Template syntaxes: `{{x}}`, `{x}`, `${x}`, `$X`, `%X%`, `<x>`, `[x]`. Group 1..7 is the name. */
const PLACEHOLDER =
  /\{\{\s*([\w.-]{1,60})\s*\}\}|\{([\w.-]{1,60})\}|\$\{\s*([\w.-]{1,60})\s*\}|\$([A-Z][A-Z0-9_]{1,60})|%([A-Za-z][\w-]{1,60})%|<([\w.-]{1,60})>|\[([\w.-]{1,60})\]/g;

/** An address as far as a reader takes it: up to a space, a closing parenthesis or a quote. */
// A spaced placeholder ("{{ user_api_key }}") is read as part of the address it sits in.
const ADDRESS =
  /(?:https?:|(?<![\w+.-]:))\/\/(?:\{\{\s*[\w.-]{1,60}\s*\}\}|\$\{\s*[\w.-]{1,60}\s*\}|[^\s)"'`]){1,2000}/gi;

/** The first address that carries a placeholder naming a secret or user data. */
function placeholderAddress(raw: string): string | undefined {
  for (const [address] of raw.matchAll(ADDRESS)) {
    // `https://app:${DB_PASSWORD}@db` is a config template: a secret in the userinfo goes nowhere.
    const sent = address.replace(/^((?:https?:)?\/\/)[^/@?#]*@/, '$1');
    for (const found of sent.matchAll(PLACEHOLDER)) {
      const name = found.slice(1).find((group) => group !== undefined)!;
      if (isSensitiveName(name)) return address;
    }
  }
  return undefined;
}

/**
 * A markdown image whose address ends in an empty query value (`…?d=)`), waiting for an agent to
 * append data, or whose query value is a name in capitals that names a secret
 * (`?q=CONVERSATION_SUMMARY`).
 */
const IMAGE = /!\[[^\]\n]{0,300}\]\(\s*<?((?:https?:)?\/\/[^\s)]{1,2000})/gi;

function dataSlotImage(raw: string): string | undefined {
  for (const found of raw.matchAll(IMAGE)) {
    const target = found[1]!.replace(/>$/, '');
    if (/[?&][\w.-]{1,40}=$/.test(target)) return found[0];
    for (const [, value] of target.matchAll(/[?&][\w.-]{1,40}=([A-Z][A-Z0-9_]{2,60})(?=&|$)/g)) {
      if (isSensitiveName(value!)) return found[0];
    }
  }
  return undefined;
}

/** "Replace {{user_api_key}} with …", "fill in ${TOKEN}": a request to put a secret into text. */
function fillInRequest(views: MatchViews): string | undefined {
  const found =
    /\b(?:replace|substitute|fill in|fill|populate|swap|expand|render|resolve)\s+((?:\{\{|\$\{|\{|%|<|\[)[\w.-]{1,60}(?:\}\}|\}|%|>|\]))\s+(?:with|by|using|for)\b/iu.exec(
      views.raw,
    );
  if (!found) return undefined;
  const name = found[1]!.replace(/^[{$%<[]+|[}%>\]]+$/g, '');
  return isSensitiveName(name) ? found[0] : undefined;
}

export const EXFILTRATION_LINK: FirewallRule = {
  id: 'exfiltration-link',
  description:
    // biome-ignore lint/suspicious/noTemplateCurlyInString: names a placeholder, meant literally
    'A link or markdown image built to carry data out: an address with a placeholder naming a secret or user data (`{{user_api_key}}`, `${SECRET}`, `<conversation>`), an image ending in an empty query value (`![x](https://…/c?d=)`) or one naming data in capitals (`?q=CONVERSATION_SUMMARY`), "replace {{user_api_key}} with…". Ordinary links, badges and REST templates (`{id}`) pass.',
  finding: 'contains a link or image built to send data to another site',
  advice: 'remove the placeholder, or link to a fixed address.',
  match: (views) => placeholderAddress(views.raw) ?? dataSlotImage(views.raw) ?? fillInRequest(views),
};
