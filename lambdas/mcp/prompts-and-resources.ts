/**
 * Everything beside tools that a connection may ask for — prompts, resources and argument
 * completions — in one module that protocol-capabilities.ts imports on the first such request.
 * In the Lambda bundle it is one chunk: a cold start whose first request is tools/list or a
 * tools/call reads none of it (the prompts' and resources' text, the rule syntax documents, the
 * memory's schemas), about 20 KB it would otherwise parse and evaluate first.
 */
export { completeArgument } from './completions.js';
export { checkPromptArguments, promptListing } from './prompt-registry.js';
export { PROMPTS } from './prompts/index.js';
export { familyOf } from './resource-registry.js';
export { RESOURCE_FAMILIES } from './resources/index.js';
