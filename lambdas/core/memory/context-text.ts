import type { Entry } from './memory-schemas.js';

/**
 * A context's entries as one text, newest kept when it is cut: an agent resuming work needs the
 * latest messages, and a tool answer must stay a bounded number of tokens (one read of a whole
 * memory graph returning 50–80k tokens is what others get wrong).
 */
export function contextText(
  entries: readonly Entry[],
  maxChars: number,
): { text: string; truncated: boolean } {
  const lines: string[] = [];
  let length = 0;
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i]!;
    const line = `[${entry.role}] ${entry.content}`;
    if (length + line.length + 1 > maxChars) return { text: lines.reverse().join('\n'), truncated: true };
    lines.push(line);
    length += line.length + 1;
  }
  return { text: lines.reverse().join('\n'), truncated: false };
}

/** The id of a branch's one context (the reference's `context_id`). */
export const contextIdOf = (branchId: string) => `ctx_${branchId}`;
