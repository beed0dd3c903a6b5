import { untrustedField } from '../../firewall/untrusted-marks.js';
import type { MemoryItem } from './memory-records.js';
import type { ContextState, Entry, StoredFile } from './memory-schemas.js';

/** Memory records as the readers' seam (MemoryReader.items) shows them. */

export const entryItem = (projectId: string, entry: Entry): MemoryItem => ({
  item_id: entry.entry_id,
  project_id: projectId,
  branch_id: entry.branch_id,
  kind: 'entry',
  text: entry.content,
  category: entry.category,
  ...untrustedField(entry.untrusted),
  created_at: entry.created_at,
});

export const fileItem = (projectId: string, file: StoredFile): MemoryItem => ({
  item_id: `file:${file.path}`,
  project_id: projectId,
  // Files belong to the project, not to a branch.
  branch_id: '',
  kind: 'file',
  text: file.content,
  path: file.path,
  category: file.category,
  ...untrustedField(file.untrusted),
  created_at: file.stored_at,
});

/** `untrusted`: the flags of the entries the summary quotes (summarizedEntries). */
export const summaryItem = (
  projectId: string,
  context: ContextState,
  at: string,
  untrusted?: string[],
): MemoryItem => ({
  item_id: `summary:${context.branch_id}`,
  project_id: projectId,
  branch_id: context.branch_id,
  kind: 'summary',
  text: context.summary ?? '',
  ...untrustedField(untrusted),
  created_at: at,
});
