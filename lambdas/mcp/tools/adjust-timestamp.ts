import { z } from 'zod';
import { MAX_SHORT_TEXT_LENGTH } from '../../core/input-limits.js';
import { adjustTimestamp } from '../../core/time/adjust-timestamp.js';
import { boundedString, ianaZone, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const adjustTimestampTool = defineTool({
  name: 'adjust_timestamp',
  title: 'Add or subtract a duration (DST-aware)',
  description:
    'Moves an instant by a signed compact duration: "+2h", "-30m", "+1d2h30m", "-2w3d", "+90s" (units w, d, ' +
    'h, m = minutes, s; largest first). Weeks and days keep the wall-clock time in the zone, so "+1d" across ' +
    'a DST change is 23 or 25 elapsed hours; hours, minutes and seconds add exact elapsed time. Calendar ' +
    'units apply first. A wall time inside a DST gap moves forward by the gap. Zone: "timezone", else the ' +
    'configured default, else the input offset (no DST).',
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
  run: (deps, input) => adjustTimestamp(deps, input),
});
