import * as z from 'zod';
import { MAX_SHORT_TEXT_LENGTH } from '../../core/input-limits.js';
import { adjustTimestamp } from '../../core/time/adjust-timestamp.js';
import { boundedString, ianaZone, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const adjustTimestampTool = defineTool({
  name: 'adjust_timestamp',
  title: 'Add or subtract a duration (DST-aware)',
  description:
    'Moves an instant by a signed compact duration ("+2h", "-30m", "+1d2h30m", "-2w3d"; m = minutes). ' +
    'Weeks and days keep the wall-clock time in the zone ("+1d" across DST is 23 or 25 hours); hours, ' +
    'minutes and seconds are exact elapsed time. Zone: timezone, else the configured one, else the input offset.',
  input: z.object({
    datetime: rfc3339('the instant to adjust'),
    adjustment: boundedString(MAX_SHORT_TEXT_LENGTH).describe(
      'Signed compact duration, e.g. "+1d2h30m" or "-2w3d".',
    ),
    timezone: ianaZone(
      'whose wall clock day and week units follow. Omit for the configured zone.',
    ).optional(),
  }),
  output: z.object({
    original: z.string(),
    adjusted_utc: z.string(),
    adjusted_local: z.string(),
    adjustment_applied: z.string(),
    timezone: z.string(),
  }),
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: (deps, input) => adjustTimestamp(deps, input),
});
