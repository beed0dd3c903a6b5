import * as z from 'zod';
import { calendarIdString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { eventIdInput } from '../calendar/calendar-schemas.js';
import { projectIdInput, rulesWrite } from './rules-schemas.js';

export const classifyEventTool = defineTool({
  name: 'classify_event',
  title: 'Classify an event by hand',
  description:
    'Pins an event, or its whole series, to a project; pins beat every rule. Needs write on the project ' +
    'and read on the calendar. Pinning again replaces the pin.',
  input: z.object({
    calendar_id: calendarIdString().describe('From list_calendars.'),
    event_id: eventIdInput,
    project_id: projectIdInput,
    scope: z.enum(['event', 'series']).default('event'),
  }),
  output: z.object({
    pin: z.object({
      calendar_id: z.string(),
      scope: z.string(),
      target_id: z.string(),
      project_id: z.string(),
      pinned_at: z.string(),
    }),
  }),
  annotations: rulesWrite({ idempotent: true }),
  needs: 'rules',
  run: async (deps, input, { principal }) => ({ pin: await deps.rules.classifyEvent(principal, input) }),
});
