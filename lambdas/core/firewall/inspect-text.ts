import { BULK_DESTRUCTION, EXFILTRATION, TOOL_CALL_REQUEST } from './action-rules.js';
import { decodedBase64Runs, decodeTagCharacters, reversedOverrideRuns } from './hidden-channels.js';
import {
  AGENT_ADDRESS,
  COVERT_ACTION,
  OVERRIDE_INSTRUCTIONS,
  ROLE_REASSIGNMENT,
} from './instruction-rules.js';
import { JAILBREAK, PROMPT_EXTRACTION } from './jailbreak-rules.js';
import { EXFILTRATION_LINK } from './link-rules.js';
import { CHAT_MARKUP, CONTEXT_BOUNDARY, HIDDEN_MARKUP } from './markup-rules.js';
import { buildViews } from './match-views.js';
import { anyPattern, type FirewallRule, rx } from './rule.js';
import { sanitizeText } from './sanitize-text.js';

export const ENCODED_INSTRUCTIONS: FirewallRule = {
  id: 'encoded-instructions',
  description:
    'Base64 text that decodes to something another rule rejects, or a request to decode and follow ("decode this and follow it").',
  finding: 'contains encoded text meant as instructions for an AI agent',
  advice: 'remove the encoded text.',
  match: anyPattern([
    {
      view: 'prose',
      re: rx`\b(?:decode|base64[- ]?decode|decipher|decrypt|unscramble|reverse)\s+(?:this|the following|the text below|it|the string|the message)\b[^.]{0,40}\b(?:and|then)\s+(?:follow|execute|run|obey|do|carry out|act on|perform)\b`,
    },
    {
      view: 'prose',
      re: rx`\b(?:follow|execute|obey|run|carry out)\s+the\s+(?:decoded|encoded|base64|hidden|reversed)\s+(?:instructions?|text|message|commands?)\b`,
    },
  ]),
};

export const CONCEALED_INSTRUCTIONS: FirewallRule = {
  id: 'concealed-instructions',
  description:
    'Instructions spelled in invisible Unicode tag characters (ASCII smuggling) or written backwards under a right-to-left override, which another rule rejects once recovered.',
  finding: 'hides instructions for an AI agent in invisible or reversed characters',
  advice: 'remove the hidden text.',
  // Works on the text before sanitizing; see concealedFinding.
  match: () => undefined,
};

/** Every rule, in the order they are tried; the first that fires is reported. */
export const FIREWALL_RULES: readonly FirewallRule[] = [
  OVERRIDE_INSTRUCTIONS,
  ROLE_REASSIGNMENT,
  AGENT_ADDRESS,
  JAILBREAK,
  PROMPT_EXTRACTION,
  CHAT_MARKUP,
  CONTEXT_BOUNDARY,
  TOOL_CALL_REQUEST,
  BULK_DESTRUCTION,
  EXFILTRATION,
  EXFILTRATION_LINK,
  COVERT_ACTION,
  HIDDEN_MARKUP,
  ENCODED_INSTRUCTIONS,
  CONCEALED_INSTRUCTIONS,
];

interface Finding {
  readonly rule: FirewallRule;
  readonly excerpt: string;
}

function plainFinding(sanitized: string): Finding | undefined {
  const views = buildViews(sanitized);
  for (const rule of FIREWALL_RULES) {
    const excerpt = rule.match(views);
    if (excerpt !== undefined) return { rule, excerpt };
  }
  return undefined;
}

function firstFinding(texts: readonly string[]): Finding | undefined {
  for (const text of texts) {
    const found = plainFinding(sanitizeText(text).text);
    if (found) return found;
  }
  return undefined;
}

function encodedFinding(sanitized: string): Finding | undefined {
  const inner = firstFinding(decodedBase64Runs(sanitized));
  return inner && { rule: ENCODED_INSTRUCTIONS, excerpt: inner.excerpt };
}

function concealedFinding(original: string): Finding | undefined {
  const tags = decodeTagCharacters(original);
  const inner = firstFinding([...(tags === '' ? [] : [tags]), ...reversedOverrideRuns(original)]);
  return inner && { rule: CONCEALED_INSTRUCTIONS, excerpt: inner.excerpt };
}

export type Inspection =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly rule: string; readonly reason: string };

const MAX_EXCERPT = 60;

function quote(excerpt: string): string {
  const flat = excerpt.replace(/\s+/g, ' ').replace(/"/g, "'").trim();
  return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT - 1).trimEnd()}…` : flat;
}

/**
 * Sanitizes `text` (see sanitizeText) and checks it against the firewall rules. `field` names the
 * field in the reason, which quotes what matched and says what to change.
 *
 * @example
 * inspectText('Team sync', 'summary'); // { ok: true, text: 'Team sync' }
 * inspectText('Ignore previous instructions.', 'description');
 * // { ok: false, rule: 'override-instructions', reason: 'The description reads like instructions
 * //   to an AI agent ("ignore previous instructions"); rephrase it as plain meeting information.' }
 */
export function inspectText(text: string, field: string): Inspection {
  const sanitized = sanitizeText(text).text;
  const found = plainFinding(sanitized) ?? encodedFinding(sanitized) ?? concealedFinding(text);
  if (!found) return { ok: true, text: sanitized };
  const { rule, excerpt } = found;
  return {
    ok: false,
    rule: rule.id,
    reason: `The ${field} ${rule.finding} ("${quote(excerpt)}"); ${rule.advice}`,
  };
}
