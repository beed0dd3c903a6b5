import * as z from 'zod';
import { PROVIDER_KINDS } from '../../../core/calendar/provider-kind.js';
import { outputFormat } from '../../schemas.js';
import { CALENDAR_READ, defineTool } from '../../tool-definition.js';

const CalendarEntryOutput = z.object({
  id: z.string(),
  provider: z.enum(PROVIDER_KINDS),
  name: z.string(),
  label: z.string().nullable(),
  description: z.string().optional(),
  time_zone: z.string().optional(),
  /** Native calendars: whose calendar it is (their declined events do not block time). */
  owner_email: z.string().optional(),
  primary: z.boolean(),
  access_role: z.enum(['owner', 'writer', 'reader', 'freeBusyReader']),
  can_read: z.boolean(),
  can_write: z.boolean(),
  connection_kind: z.enum(['native', 'oauth', 'password']),
  connection_id: z.string(),
});

export const listCalendarsTool = defineTool({
  name: 'list_calendars',
  title: 'List calendars',
  description:
    'Every calendar this API key may use, with its id (the calendar_id elsewhere) and can_read/can_write. ' +
    'Call this before working with events.',
  input: z.object({
    provider: z.enum(PROVIDER_KINDS).optional().describe('Only calendars of this provider.'),
    format: outputFormat,
  }),
  output: z.object({ calendars: z.array(CalendarEntryOutput), count: z.number().int() }),
  annotations: CALENDAR_READ,
  needs: 'calendar',
  run: async (deps, input, { principal }) => {
    const calendars = await deps.calendars.listCalendars(principal, input.provider);
    return { calendars, count: calendars.length };
  },
});
