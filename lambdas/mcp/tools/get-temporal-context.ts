import { z } from 'zod';
import { getTemporalContext } from '../../core/time/temporal-context.js';
import { ianaZone } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const getTemporalContextTool = defineTool({
  name: 'get_temporal_context',
  title: 'Current time and zone',
  description:
    'Call this first. Returns the current instant in UTC and in a zone (the given one, else the configured ' +
    'default), the UTC offset, whether DST is active, weekday, ISO week, day of year, and the next DST ' +
    'transition when the zone has one. timezone_configured=false means no default zone is set: UTC was ' +
    'used, so ask the user for their zone.',
  input: z.object({
    timezone: ianaZone('to report in. Omit to use the configured default zone.').optional(),
  }),
  output: z.object({
    utc: z.string(),
    local: z.string(),
    timezone: z.string(),
    timezone_configured: z.boolean(),
    utc_offset: z.string(),
    dst_active: z.boolean(),
    day_of_week: z.string(),
    iso_week: z.number().int(),
    is_weekday: z.boolean(),
    day_of_year: z.number().int(),
    next_dst_transition: z.string().optional(),
    next_dst_direction: z.enum(['spring-forward', 'fall-back']).optional(),
    days_until_dst_transition: z.number().int().optional(),
  }),
  annotations: PURE_COMPUTATION,
  run: (deps, input) => getTemporalContext(deps, input),
});
