import type { ToolDefinition } from '../../tool-definition.js';
import { acceptSuggestionsTool } from '../memory/accept-suggestions.js';
import { createBranchTool } from '../memory/create-branch.js';
import { createSnapshotTool } from '../memory/create-snapshot.js';
import { getActiveSummaryTool } from '../memory/get-active-summary.js';
import { getAutomationStatusTool } from '../memory/get-automation-status.js';
import { getContextGraphInfoTool } from '../memory/get-context-graph-info.js';
import { initializeContextTool } from '../memory/initialize-context.js';
import { linkGitBranchTool } from '../memory/link-git-branch.js';
import { listBranchesTool } from '../memory/list-branches.js';
import { listSnapshotsTool } from '../memory/list-snapshots.js';
import { loadContextTool } from '../memory/load-context.js';
import { rejectSuggestionsTool } from '../memory/reject-suggestions.js';
import { restoreSnapshotTool } from '../memory/restore-snapshot.js';
import { searchContextTool } from '../memory/search-context.js';
import { suggestContextsTool } from '../memory/suggest-contexts.js';
import { syncFromCloudTool } from '../memory/sync-from-cloud.js';
import { syncToCloudTool } from '../memory/sync-to-cloud.js';
import { updateMemoryTool } from '../memory/update-memory.js';
import { verifyResponseTool } from '../memory/verify-response.js';

/** The memory toolset: project contexts, branches, search, grounding, snapshots and cloud sync. In listing order. */
export const memoryTools: readonly ToolDefinition[] = [
  initializeContextTool,
  createBranchTool,
  listBranchesTool,
  updateMemoryTool,
  getActiveSummaryTool,
  loadContextTool,
  linkGitBranchTool,
  searchContextTool,
  verifyResponseTool,
  suggestContextsTool,
  acceptSuggestionsTool,
  rejectSuggestionsTool,
  getAutomationStatusTool,
  getContextGraphInfoTool,
  createSnapshotTool,
  restoreSnapshotTool,
  listSnapshotsTool,
  syncToCloudTool,
  syncFromCloudTool,
];
