import * as z from 'zod';
import { convertTimezone } from '../../core/time/convert-timezone.js';
import { ianaZone, rfc3339 } from '../schemas.js';
import { defineTool, PURE_COMPUTATION } from '../tool-definition.js';

export const convertTimezoneTool = defineTool({
  name: 'convert_timezone',
  title: 'Convert between time zones',
  description:
    'Shows an RFC 3339 instant on the wall clock of another IANA zone. The instant never changes: "utc" ' +
    'equals the input. Returns the local time, the UTC offset in force then, and whether DST is active.',
  input: z.object({
    datetime: rfc3339('the instant to convert'),
    target_timezone: ianaZone('to show the instant in'),
  }),
  output: z.object({
    utc: z.string(),
    local: z.string(),
    timezone: z.string(),
    utc_offset: z.string(),
    dst_active: z.boolean(),
  }),
  annotations: PURE_COMPUTATION,
  needs: 'time',
  run: (_deps, input) => convertTimezone(input),
});
