import * as z from 'zod';
import { WARNING_CODES } from '../../core/warnings.js';

/** The `warnings` of a write's answer (codes in core/warnings.ts); absent when there are none. */
export const warningsOutput = z
  .array(z.object({ code: z.enum(WARNING_CODES), message: z.string(), field: z.string().optional() }))
  .optional()
  .describe('The write, done other than as sent.');
