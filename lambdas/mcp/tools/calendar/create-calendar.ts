import * as z from 'zod';
import { serverZone } from '../../../core/calendar/calendar-zone.js';
import { requireZone } from '../../../core/time/zones.js';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { calendarIdString, emailAddress, ianaZone } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';

export const createCalendarTool = defineTool({
  name: 'create_calendar',
  title: 'Create a calendar',
  description:
    'Creates a native calendar, or one on the Google/CalDAV account that holds calendar_id. Only this ' +
    'API key gets access to it (read and write) until the owner grants others.',
  input: z.object({
    summary: z.string().min(1).max(256).describe('Calendar name.'),
    description: z.string().max(2048).optional().describe('Plain text.'),
    time_zone: ianaZone("of the calendar. Omit for the server's configured zone, else UTC.").optional(),
    owner_email: emailAddress
      .optional()
      .describe(
        'Native calendars only: whose calendar this is, e.g. "ann@example.com"; events that person declined ' +
          '(respond_to_event) do not count as busy. Google and CalDAV know their owner.',
      ),
    calendar_id: calendarIdString()
      .optional()
      .describe(
        'An existing calendar on the account that should own the new one; omit for a native calendar.',
      ),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({
    calendar_id: z.string(),
    calendar: z.record(z.string(), z.unknown()),
    time_zone_from: z
      .enum(['input', 'server_default', 'utc'])
      .describe('Where calendar.time_zone came from.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  needs: 'calendar',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => {
    // Stored as IANA spells it ("europe/berlin" → "Europe/Berlin"): other agents read it later.
    // Every new calendar gets a zone, said in the answer: a zoneless one read local times in
    // whatever the server defaulted to at the time, silently (issue 22 S3).
    const timeZoneFrom: 'input' | 'server_default' | 'utc' = input.time_zone
      ? 'input'
      : deps.defaultTimezone
        ? 'server_default'
        : 'utc';
    const timeZone = input.time_zone
      ? requireZone(input.time_zone, 'time_zone').name
      : serverZone(deps.defaultTimezone);
    const calendar = await deps.calendars.createCalendar(principal, {
      name: input.summary,
      ...(input.description ? { description: input.description } : {}),
      time_zone: timeZone,
      ...(input.owner_email ? { owner_email: input.owner_email } : {}),
      ...(input.calendar_id ? { parent_calendar_id: input.calendar_id } : {}),
    });
    return { calendar_id: calendar.id, calendar: { ...calendar }, time_zone_from: timeZoneFrom };
  },
});
