import { z } from 'zod';
import { boundedString } from '../../schemas.js';

/** A suggestion session id, as suggest_contexts answered it. */
export const sessionIdField = boundedString(64)
  .regex(/^sug_\w+$/, 'expected the session_id suggest_contexts answered, e.g. "sug_20260102123456_1a2b3c4d"')
  .describe('From suggest_contexts.');

/** The ids of contexts (memory entries, files, summaries) as suggest_contexts and search name them. */
export const contextIdField = boundedString(300);

/** Every answer of these tools says it succeeded and why, like the other memory tools. */
export const outcome = { success: z.boolean(), message: z.string() };
