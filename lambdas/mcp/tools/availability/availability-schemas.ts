import { z } from 'zod';
import { MAX_SHORT_TEXT_LENGTH } from '../../../core/input-limits.js';
import { boundedString, ianaZone } from '../../schemas.js';

/** Inputs and outputs shared by the availability tools. */

export const slotOptionsInput = {
  working_hours: boundedString(MAX_SHORT_TEXT_LENGTH)
    .regex(/^\d{1,2}:\d{2}\s*-\s*\d{1,2}:\d{2}$/, 'expected "HH:MM-HH:MM", e.g. "09:00-17:00"')
    .optional()
    .describe(
      'Only offer time within these hours each working day, e.g. "09:00-17:00" ("22:00-06:00" spans midnight).',
    ),
  working_days: z
    .array(z.number().int().min(1).max(7))
    .min(1)
    .max(7)
    .optional()
    .describe('ISO weekdays for working_hours, 1 = Monday … 7 = Sunday. Default Monday–Friday.'),
  timezone: ianaZone(
    "the working hours are read in. Default: the calendar's zone, else the configured zone.",
  ).optional(),
  buffer_minutes: z
    .number()
    .int()
    .min(0)
    .max(240)
    .default(0)
    .describe('Minutes kept clear before and after every busy event.'),
};

export const FreshnessOutput = z.object({
  calendar_id: z.string(),
  source: z.enum(['shadow', 'live']),
  synced_at: z.string().optional(),
  age_seconds: z.number().optional(),
});

export const SlotOutput = z.object({
  start: z.string(),
  end: z.string(),
  duration_minutes: z.number().int(),
});

/** Hints shared by the read-only availability tools (reference annotation table). */
export const AVAILABILITY_READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
