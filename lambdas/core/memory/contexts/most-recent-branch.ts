import type { MemoryItem } from '../store/memory-records.js';
import type { Branch } from '../store/memory-schemas.js';

/**
 * The branch worked on last: the one whose newest entry is newest, a branch with no entries
 * counting from its creation. An agent that names no branch and has no linked git branch means
 * "where I left off"; undefined when the project has no branch.
 *
 * @example
 * mostRecentBranch(branches, await memory.items(projectId))?.branch_id; // 'b0…' of the last entry written
 */
export function mostRecentBranch(
  branches: readonly Branch[],
  items: readonly MemoryItem[],
): Branch | undefined {
  // Each branch's last activity: its newest entry, else its creation (ISO 8601 UTC compares as text).
  const lastActivity = new Map(branches.map((b) => [b.branch_id, b.created_at]));
  for (const item of items) {
    const seen = lastActivity.get(item.branch_id);
    if (item.kind === 'entry' && seen !== undefined && item.created_at >= seen)
      lastActivity.set(item.branch_id, item.created_at);
  }
  // listBranches is oldest first: on a tie the later-created branch wins.
  return branches.reduce<Branch | undefined>(
    (latest, branch) =>
      !latest || lastActivity.get(branch.branch_id)! >= lastActivity.get(latest.branch_id)! ? branch : latest,
    undefined,
  );
}
