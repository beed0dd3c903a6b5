import * as z from 'zod';
import { OTHER_PROJECTS } from '../../../core/rules/project-access.js';
import { timesheetCsv } from '../../../core/rules/timesheet-csv.js';
import { ianaZone, rfc3339 } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { projectIdInput, RULES_READ, windowInputs } from './rules-schemas.js';

const Minutes = { raw_minutes: z.number(), rounded_minutes: z.number(), billable_minutes: z.number() };
const SPECIAL_LABELS: Readonly<Record<string, string>> = {
  unclassified: 'Unclassified',
  [OTHER_PROJECTS]: 'Other projects (no read access)',
};

export const getTimesheetTool = defineTool({
  name: 'get_timesheet',
  title: 'Timesheet',
  description:
    'Classified time in a window: raw, rounded and billable minutes per project, day, week or calendar, and ' +
    'unclassified time with its largest clusters. Declined, cancelled, free and all-day events do not count; ' +
    'overlapping time counts once (to the event that started last). Time of projects you cannot read ' +
    'shows as one "other" line; project_ids you cannot read are refused.',
  input: z.object({
    start: rfc3339('window start'),
    end: rfc3339('window end'),
    group_by: z.enum(['project', 'day', 'week', 'calendar']).default('project'),
    timezone: ianaZone(
      "whose days and weeks group_by day/week uses. Default: the server's, else UTC.",
    ).optional(),
    project_ids: z.array(projectIdInput).min(1).max(50).optional().describe("Only these projects' time."),
    calendar_ids: windowInputs.calendar_ids,
    include_all_day: z.boolean().default(false).describe('Count all-day events.'),
    format: z
      .enum(['toon', 'json', 'csv'])
      .default('toon')
      .describe('Text as TOON, JSON or CSV; only "json" adds structuredContent.'),
  }),
  output: z.object({
    window: z.object({ start: z.string(), end: z.string() }),
    group_by: z.enum(['project', 'day', 'week', 'calendar']),
    time_zone: z.string(),
    groups: z.array(z.object({ key: z.string(), label: z.string(), ...Minutes, events: z.number().int() })),
    totals: z.object({ ...Minutes, events: z.number().int() }),
    unclassified: z.object({
      minutes: z.number(),
      events: z.number().int(),
      clusters: z.array(
        z.object({
          label: z.string(),
          events: z.number().int(),
          minutes: z.number(),
          sample_event_ids: z.array(z.string()),
        }),
      ),
    }),
  }),
  annotations: RULES_READ,
  needs: 'rules',
  run: async (deps, input, { principal, work }) => {
    const [report, projects] = await Promise.all([
      deps.rules.getTimesheet(principal, input, work),
      input.group_by === 'project'
        ? deps.rules.listProjects(principal, { includeArchived: true })
        : Promise.resolve([]),
    ]);
    const names = new Map(projects.map((p) => [p.project_id, p.name]));
    const labelOf = (key: string) => names.get(key) ?? SPECIAL_LABELS[key] ?? key;
    return {
      ...report,
      groups: report.groups.map(({ key, ...minutes }) => ({ key, label: labelOf(key), ...minutes })),
    };
  },
  renderText: (output, format) =>
    format === 'csv'
      ? timesheetCsv(output, (key) => output.groups.find((g) => g.key === key)?.label)
      : undefined,
  toonView: ({ unclassified, ...rest }) => ({
    ...rest,
    unclassified: {
      ...unclassified,
      clusters: unclassified.clusters.map(({ sample_event_ids, ...c }) => ({
        ...c,
        sample_event_ids: sample_event_ids.join(' '),
      })),
    },
  }),
});
