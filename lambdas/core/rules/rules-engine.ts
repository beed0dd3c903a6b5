/**
 * What RulesService's rule, preview, timesheet and suggestion methods stand on: the query parser
 * and classifier, the event reads (luxon, the shadow calendar) and the reports. The service
 * imports this module on the first call that needs it (one chunk in a bundle), so a first
 * list_projects loads none of it.
 */
export { ShadowStore } from '../shadow/shadow-store.js';
export { requireZone } from '../time/zones.js';
export { assembleQuery } from './assemble-query.js';
export { compileRule } from './classify.js';
export { vocabularyOf } from './description-vocabulary.js';
export { parseQuery } from './parse-query.js';
export { printQuery } from './print-query.js';
export { RuleContext } from './rule-context.js';
export { readRuleEvents, ruleWindow, toRuleEvent } from './rule-events.js';
export { explainEvent } from './rule-explain.js';
export { draftQuery, unplacedNote } from './rule-from-description.js';
export { previewQuery } from './rule-preview.js';
export { decodeProposal, encodeProposal } from './rule-proposal.js';
export { suggestRules } from './rule-suggestions.js';
export { rulesWithUsage } from './rule-usage.js';
export { buildTimesheet } from './timesheet-report.js';
export { hideMovesFrom, hideUnreadable, visibleSuggestions } from './unreadable-projects.js';
