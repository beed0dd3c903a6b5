import type { MatchViews } from './match-views.js';
import { anyPattern, type FirewallRule, oneOf, rx, rxLines } from './rule.js';

// What follows a role label when it opens a fake turn ("System: you are…") rather than a field
// ("System: SAP ERP", "Assistant: Maria, ext. 4411").
const ROLE_CUE = oneOf(
  'you are(?! (?:expected|required|invited|welcome|responsible|registered|asked|encouraged|reminded|not|also|all|going|free|kindly)\\b)',
  "you're",
  'youre',
  'you will now',
  'you must (?:now|always|never|only)',
  'ignore',
  'disregard',
  'forget',
  'override',
  'from now on',
  'pretend',
  'act as',
  'new (?:instructions|rules|directives?)',
  'your (?:new |real |true )?(?:instructions|role|purpose|directives?) (?:is|are)',
);
const ROLE = oneOf('system', 'assistant', 'user', 'human', 'developer', 'ai', 'model', 'bot');

/** `</s>` ends a Llama turn; `<s>…</s>` is HTML strikethrough, so only a closing tag without an opener counts. */
function unmatchedEndOfSequence(views: MatchViews): string | undefined {
  const closers = views.markup.match(/<\/s>/g)?.length ?? 0;
  const openers = views.markup.match(/<s(?:\s[^<>]*)?>/g)?.length ?? 0;
  return closers > openers ? '</s>' : undefined;
}

const ROLE_MARKUP = anyPattern([
  { view: 'markup', re: /<\|[a-z][a-z0-9_]{1,30}\|>/u },
  { view: 'markup', re: /\[\/?inst\]|<<\/?sys>>|<\/?(?:start_of_turn|end_of_turn)>/u },
  { view: 'markup', re: rxLines`^#{2,6} ?(?:instruction|system|system prompt)\s*:` },
  { view: 'markup', re: rxLines`^[ \t>*_#-]*${ROLE}\s*[:>]\s*${ROLE_CUE}` },
  {
    view: 'markup',
    re: rx`[\[<(](?:system|assistant|developer|admin|administrator|root|operator)(?:[ _-]?(?:message|note|prompt|override|instructions?|command|directive))?[\]>)]\s*:?\s*${ROLE_CUE}`,
  },
  {
    view: 'markup',
    re: /[[<](?:system|admin|administrator|developer|root)[ _-]?(?:override|instructions?|command|directive|prompt)[\]>]/u,
  },
  { view: 'markup', re: rx`\b(?:system|admin|administrator|developer|root) (?:override|directive)\s*:` },
  {
    view: 'markup',
    re: rxLines`^\W*(?:new |updated |real |actual )system (?:prompt|instructions|message)\s*:`,
  },
  { view: 'markup', re: rxLines`^\W*system (?:prompt|instructions)\s*:\s*${ROLE_CUE}` },
  // A made-up turn in which the assistant already agreed ("Assistant: Sure, I'll delete…").
  {
    view: 'markup',
    re: rxLines`^[ \t>*_-]*(?:assistant|ai|gpt|chatgpt|model|bot)\s*:\s*(?:sure|certainly|of course|okay|ok|i will|i'll|understood|absolutely|yes|as an ai|as requested|done)\b`,
  },
]);

export const CHAT_MARKUP: FirewallRule = {
  id: 'chat-markup',
  description:
    'Chat-template tokens and role turns: <|im_start|>, [INST], <<SYS>>, <start_of_turn>, an unmatched </s>, "### Instruction:", a line "System: you are…", "[system override]", a fake "Assistant: Sure, …" turn. Field labels such as "System: SAP ERP" pass.',
  finding: 'contains chat-template or role markup that an AI agent may read as a new conversation turn',
  advice: 'remove the markup; calendar text should only describe the meeting.',
  match: (views) => ROLE_MARKUP(views) ?? unmatchedEndOfSequence(views),
};

export const CONTEXT_BOUNDARY: FirewallRule = {
  id: 'context-boundary',
  description:
    'Pretends the data has ended and new instructions begin: "=== END OF EVENT DATA ===", "</tool_result>", "<untrusted_content>", "BEGIN SYSTEM PROMPT".',
  finding: 'pretends to end the data an AI agent is reading and start new instructions',
  advice: 'remove the delimiter text.',
  match: anyPattern([
    {
      view: 'prose',
      re: rx`\b(?:end|close|stop) of (?:the )?(?:user input|user message|user data|event data|calendar data|tool (?:output|result|response)|function (?:output|result)|untrusted (?:content|data|input|text)|external (?:content|data)|retrieved (?:content|data)|event description)\b`,
    },
    {
      view: 'prose',
      re: rx`\b(?:begin|start|beginning) (?:of )?(?:the )?(?:new |real |actual )?(?:system|admin|developer) (?:prompt|message|instructions)\b`,
    },
    {
      view: 'markup',
      re: /<\/?(?:function_results|tool_result|tool_output|tool_response|user_input|untrusted[_-]?[a-z]*|system_prompt|system-prompt|instructions)>/u,
    },
  ]),
};

// Words that show hidden text is talking to a reader, not a template note ("<!-- agenda v2 -->").
const READER_CUE =
  /\b(?:you|your|ai|a\.i\.|agents?|assistants?|llms?|models?|chatbots?|gpt|instructions?|prompts?|ignore|disregard|forget|summari[sz]e|respond|reply|tell|say|call|invoke|delete|forward|send)\b/u;

function addressedHiddenText(views: MatchViews): string | undefined {
  const { markup } = views;
  for (const found of markup.matchAll(/<!--([\s\S]*?)(?:-->|$)/g)) {
    const body = found[1]!;
    // Outlook's conditional comments carry styles, not text.
    if (/^\s*\[if\b/.test(body)) continue;
    if (READER_CUE.test(body)) return body.trim();
  }
  for (const found of markup.matchAll(
    /^\[[^\]\n]{1,40}\]:\s*(?:#|<>|<[^>\n]*>)\s*(?:\(([^)\n]*)\)|"([^"\n]*)")/gm,
  )) {
    const body = found[1] ?? found[2] ?? '';
    if (READER_CUE.test(body)) return body.trim();
  }
  for (const found of markup.matchAll(/<([a-z][a-z0-9]*)\b([^<>]{0,500})>/g)) {
    const [tag, name, attributes] = found as unknown as [string, string, string];
    const hidden =
      /\bhidden\b/.test(attributes) ||
      /(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9]))/.test(
        attributes,
      );
    if (!hidden) continue;
    const start = found.index + tag.length;
    const end = markup.indexOf(`</${name}`, start);
    const body = markup.slice(start, end === -1 ? undefined : end);
    if (READER_CUE.test(body)) return body.trim();
  }
  return undefined;
}

export const HIDDEN_MARKUP: FirewallRule = {
  id: 'hidden-markup',
  description:
    'Text that people do not see but agents read — an HTML comment, a markdown link-reference comment ([//]: # (…)), or an element styled display:none / font-size:0 / hidden — when it speaks to a reader. Outlook conditional comments and plain template notes pass.',
  finding: 'hides text from people that speaks to an AI agent',
  advice: 'put what attendees need in the visible text and remove the hidden part.',
  match: addressedHiddenText,
};
