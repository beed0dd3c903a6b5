import { unionOfMarks } from '../../firewall/untrusted-marks.js';
import type { Entry } from '../store/memory-schemas.js';

/** How a flagged entry's line starts: `[user, untrusted: agent-address] …`, beside the text it warns of. */
const lineHead = (entry: Entry) =>
  entry.untrusted?.length ? `[${entry.role}, untrusted: ${entry.untrusted.join(' ')}]` : `[${entry.role}]`;

/**
 * A context's entries as one text, newest kept when it is cut: an agent resuming work needs the
 * latest messages, and a tool answer must stay a bounded number of tokens (one read of a whole
 * memory graph returning 50–80k tokens is what others get wrong). A flagged entry's line says so,
 * and `untrusted` gathers the flags of the lines kept.
 */
export function contextText(
  entries: readonly Entry[],
  maxChars: number,
): { text: string; truncated: boolean; untrusted: string[] } {
  const lines: string[] = [];
  const kept: Entry[] = [];
  let length = 0;
  let truncated = false;
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i]!;
    const line = `${lineHead(entry)} ${entry.content}`;
    if (length + line.length + 1 > maxChars) {
      truncated = true;
      break;
    }
    lines.push(line);
    kept.push(entry);
    length += line.length + 1;
  }
  return {
    text: lines.reverse().join('\n'),
    truncated,
    untrusted: unionOfMarks(kept.reverse().map((entry) => entry.untrusted)),
  };
}

/** The id of a branch's one context (the reference's `context_id`). */
export const contextIdOf = (branchId: string) => `ctx_${branchId}`;
