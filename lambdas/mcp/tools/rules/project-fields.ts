import * as z from 'zod';
import { storedText } from '../../schemas.js';
import { RoundingFields } from './rules-schemas.js';

/** A project's name, as create_project sets it and update_project changes it. */
export const projectNameInput = storedText(200);

/** The fields create_project sets and update_project changes, described once. */
export const projectFieldInputs = {
  client: storedText(200).optional().describe('Client name, for invoices.'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'expected a color as #rrggbb')
    .optional()
    .describe('Display color, e.g. "#1a73e8".'),
  billable: z.boolean().optional().describe('Counts as billable minutes on timesheets.'),
  rounding: RoundingFields.optional().describe(
    'Round each event\'s minutes on timesheets, e.g. {"minutes":15,"mode":"up"}.',
  ),
};
