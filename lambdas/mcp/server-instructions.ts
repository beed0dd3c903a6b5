import { isEnabled, type ToolsetSelection } from './toolsets.js';

/** What holds whichever toolsets a connection enabled. */
const COMMON =
  'Every timestamp is RFC 3339 with an offset. Failures come back as isError results whose JSON names a ' +
  'stable error code and says what to change.';

/**
 * Each toolset's sentence of the server instructions, in listing order. A connection that did not
 * enable a toolset is not told about its tools: the instructions would send the agent to tools it
 * cannot call. Every toolset of lambdas/mcp/tools/index.ts has one (a test checks).
 */
export const TOOLSET_INSTRUCTIONS: Readonly<Record<string, string>> = {
  time:
    'Call get_temporal_context first to learn the current time and zone, then resolve_datetime to turn ' +
    'phrases like "next Tuesday at 2pm" into exact timestamps.',
  calendar:
    'list_calendars names the calendars this key may read or write (ids like native/…, google/…, caldav/…); ' +
    'pass those ids to the event tools.',
  availability:
    'To book, find bookable slots with find_free_slots (slot_minutes), then book_slot: it never double-books, ' +
    'and SLOT_TAKEN suggests the next free slots.',
  rules:
    'Time is classified into projects by rules written in a query language (timesheet://docs/rules-syntax): ' +
    'preview_rule before create_rule, explain_classification for why, get_timesheet for totals.',
  memory:
    'Project memory: initialize_context gives the project id; get_active_summary resumes work, update_memory ' +
    'records it, search_context finds it, verify_response checks an answer against it.',
};

/**
 * The instructions a server announces at initialize: what the connection's toolsets (all when
 * it chose none) contribute, then what holds for all of them.
 *
 * @example
 * serverInstructions(['calendar']); // the calendar sentence and the common one, no time tools
 */
export function serverInstructions(selection: ToolsetSelection): string {
  const sentences = Object.entries(TOOLSET_INSTRUCTIONS)
    .filter(([toolset]) => isEnabled(selection, toolset))
    .map(([, sentence]) => sentence);
  return [...sentences, COMMON].join(' ');
}
