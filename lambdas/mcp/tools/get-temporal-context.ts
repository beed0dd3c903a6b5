import * as z from 'zod';
import { getTemporalContext } from '../../core/time/temporal-context.js';
import { ianaZone } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const getTemporalContextTool = defineTool({
  name: 'get_temporal_context',
  title: 'Current time and zone',
  description:
    'Call this first: the current instant in UTC and in a zone (given, else the configured one), with ' +
    'offset, DST, weekday, ISO week and the next DST transition. timezone_configured=false means the server ' +
    'has no zone set (UTC unless you pass timezone): ask the user for theirs.',
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
  needs: 'time',
  run: (deps, input) => getTemporalContext(deps, input),
});
