import * as z from 'zod';
import { withHintExample } from '../../field-hints.js';
import { boundedString } from '../../schemas.js';
import { CONTEXT_ID_EXAMPLE } from './memory-fields.js';

/** A suggestion session id, as suggest_contexts answered it. */
export const sessionIdField = withHintExample(boundedString(64), 'sug_20260102123456_1a2b3c4d')
  .regex(/^sug_\w+$/, 'expected the session_id suggest_contexts answered, e.g. "sug_20260102123456_1a2b3c4d"')
  .describe('From suggest_contexts.');

/** The ids of contexts (memory entries, files, summaries) as suggest_contexts and search name them. */
export const contextIdField = withHintExample(boundedString(300), CONTEXT_ID_EXAMPLE);

/** Every answer of these tools says it succeeded and why, like the other memory tools. */
export const outcome = { success: z.boolean(), message: z.string() };
