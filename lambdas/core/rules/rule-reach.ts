import type { AccessStore } from '../access/access-store.js';
import type { Principal } from '../access/rights.js';

/**
 * Who saved a rule, as stored on it: `local-owner`, or `key:<key id>` (an API key, or a signed-in
 * person's consent). Rules saved before authors were recorded have none.
 */
export type RuleAuthor = string;

export function authorOf(principal: Principal): RuleAuthor {
  return principal.kind === 'local-owner' ? 'local-owner' : `key:${principal.keyId}`;
}

/** Whether a rule by `author` classifies the events of `calendarId`. */
export type RuleReach = (author: RuleAuthor | undefined, calendarId: string) => boolean;

/**
 * A rule classifies only the events of calendars its author may read. Classification is one
 * truth for everyone who reads a calendar, and any key may create a project and write rules in
 * it; without this, a key holding no grant at all could outrank the owner's rule and take their
 * events out of their project, on calendars it cannot even see. "What you can see is what you
 * may classify" is the rule classify_event already follows (read on the calendar).
 *
 * Read once per call for the authors of the rules in play (one read of grants per distinct
 * key). A rule saved before authors were recorded keeps reaching every calendar, as it did.
 */
export async function ruleReachOf(
  access: AccessStore,
  authors: Iterable<RuleAuthor | undefined>,
): Promise<RuleReach> {
  const keys = [...new Set([...authors].filter((a): a is string => a?.startsWith('key:') === true))];
  const readable = new Map(
    await Promise.all(
      keys.map(
        async (author) => [author, await access.rightsOn(author.slice('key:'.length), 'calendar')] as const,
      ),
    ),
  );
  return (author, calendarId) => {
    if (author === undefined || author === 'local-owner') return true;
    return readable.get(author)?.has(calendarId) ?? false;
  };
}
