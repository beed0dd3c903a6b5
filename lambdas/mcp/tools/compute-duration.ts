import * as z from 'zod';
import { computeDuration } from '../../core/time/compute-duration.js';
import { rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const computeDurationTool = defineTool({
  name: 'compute_duration',
  title: 'Duration between two instants',
  description:
    'Exact elapsed time from start to end (24-hour days; DST does not change it). If end is before start, ' +
    'total_seconds is negative, direction is "backward", and the parts give the magnitude.',
  input: z.object({
    start: rfc3339('the first instant'),
    end: rfc3339('the second instant'),
  }),
  output: z.object({
    total_seconds: z.number(),
    days: z.number().int(),
    hours: z.number().int(),
    minutes: z.number().int(),
    seconds: z.number(),
    human_readable: z.string(),
    direction: z.enum(['forward', 'backward']),
  }),
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: (_deps, input) => computeDuration(input),
});
