import * as z from 'zod';
import { MEMORY_CATEGORIES } from './categories.js';

/**
 * The records of a project's memory as stored (bodies already inlined from the blob store; see
 * memory-bodies.ts). Every record is validated when read back.
 */

/** A line of work inside a project: its own context, optionally linked to a git branch. */
export const Branch = z.object({
  branch_id: z.string(),
  topic: z.string(),
  /** The firewall rules the topic trips (it is kept, flagged, as entries are); absent when none. */
  untrusted: z.array(z.string()).optional(),
  parent_branch_id: z.string().optional(),
  git_branch: z.string().optional(),
  created_at: z.string(),
  version: z.number().int().min(1),
});
export type Branch = z.infer<typeof Branch>;

export const EntryRole = z.enum(['user', 'assistant']);
export type EntryRole = z.infer<typeof EntryRole>;

/** One message appended to a branch's context; `version` counts replacements. */
export const Entry = z.object({
  entry_id: z.string(),
  branch_id: z.string(),
  role: EntryRole,
  category: z.enum(MEMORY_CATEGORIES),
  content: z.string(),
  /** The firewall rules the content trips (it is kept, flagged); absent when none. See untrusted-text.ts. */
  untrusted: z.array(z.string()).optional(),
  version: z.number().int().min(1),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Entry = z.infer<typeof Entry>;

/**
 * A branch's context state. Active: its entries are rows of their own. Compressed (idle 30
 * minutes): `body_gz` (base64 gzip of the entries' JSON) holds the entries it lists, and the
 * summary stays readable without opening it.
 */
export const ContextState = z.object({
  branch_id: z.string(),
  compressed: z.boolean(),
  summary: z.string().optional(),
  body_gz: z.string().optional(),
  entry_ids: z.array(z.string()),
  message_count: z.number().int().min(0),
  compressed_at: z.string().optional(),
  restored_at: z.string().optional(),
  version: z.number().int().min(1),
});
export type ContextState = z.infer<typeof ContextState>;

/** A project file initialize_context stored, already redacted. */
export const StoredFile = z.object({
  path: z.string(),
  content: z.string(),
  source: z.enum(['folder', 'agent']),
  category: z.enum(MEMORY_CATEGORIES),
  untrusted: z.array(z.string()).optional(),
  stored_at: z.string(),
});
export type StoredFile = z.infer<typeof StoredFile>;

/** A git branch name linked to a memory branch. */
export const GitLink = z.object({ git_branch: z.string(), branch_id: z.string(), linked_at: z.string() });
export type GitLink = z.infer<typeof GitLink>;

/** The generation pointer: which generation is current, and a token that changes on every write. */
export const Pointer = z.object({ generation: z.string(), revision: z.string(), updated_at: z.string() });
export type Pointer = z.infer<typeof Pointer>;
