import * as z from 'zod';
import { MAX_SHORT_TEXT_LENGTH } from '../../../core/input-limits.js';
import { boundedString, ianaZone } from '../../schemas.js';

/** Inputs and outputs shared by the availability tools. */

function bufferInput(purpose: string) {
  return z.number().int().min(0).max(240).optional().describe(purpose);
}

export const slotOptionsInput = {
  working_hours: boundedString(MAX_SHORT_TEXT_LENGTH)
    .regex(/^\d{1,2}:\d{2}\s*-\s*\d{1,2}:\d{2}$/, 'expected "HH:MM-HH:MM", e.g. "09:00-17:00"')
    .optional()
    .describe('e.g. "09:00-17:00" ("22:00-06:00" spans midnight).'),
  working_days: z
    .array(z.number().int().min(1).max(7))
    .min(1)
    .max(7)
    .optional()
    .describe('ISO weekdays for working_hours, 1 = Monday; default 1–5.'),
  timezone: ianaZone("of working_hours and the *_local times; default the calendar's zone.").optional(),
  buffer_minutes: bufferInput('Minutes kept clear around busy events.'),
  buffer_before_minutes: bufferInput('Before busy events; overrides buffer_minutes.'),
  buffer_after_minutes: bufferInput('After busy events; overrides buffer_minutes.'),
};

export const FreshnessOutput = z.object({
  calendar_id: z.string(),
  source: z.enum(['shadow', 'live']),
  synced_at: z.string().optional(),
  age_seconds: z.number().optional(),
});

/** A span in UTC (start, end) and on the answer's wall clock (see its `timezone`). */
export const LocalSpanOutput = z.object({
  start: z.string(),
  end: z.string(),
  start_local: z.string(),
  end_local: z.string(),
  weekday: z.string(),
});

export const SlotOutput = LocalSpanOutput.extend({ duration_minutes: z.number().int() });

/** Hints shared by the read-only availability tools (reference annotation table). */
export const AVAILABILITY_READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
