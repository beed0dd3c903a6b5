import type { GetPromptResult } from '@modelcontextprotocol/server';
import type { Principal } from '../../core/access/rights.js';
import { serverZone } from '../../core/calendar/calendar-zone.js';
import { DomainError } from '../../core/errors.js';
import { echo, MAX_SHORT_TEXT_LENGTH } from '../../core/input-limits.js';
import type { Project } from '../../core/rules/project-store.js';
import { rulesSyntaxMarkdown } from '../../core/rules/syntax-docs.js';
import type { RulesSlice } from '../deps.js';
import { definePrompt } from '../prompt-registry.js';
import { boundedString } from '../schemas.js';
import { projectNameInput } from '../tools/rules/project-fields.js';
import { draftDescriptionInput } from '../tools/rules/rules-schemas.js';

const SYNTAX_URI = 'timesheet://docs/rules-syntax';
const NAMES_SHOWN = 10;

function userText(text: string): GetPromptResult['messages'][number] {
  return { role: 'user', content: { type: 'text', text } };
}

/**
 * The active project a prompt argument names, by id or by name (case-insensitive), among those
 * the caller may read; INVALID_INPUT listing some that exist otherwise.
 */
async function projectNamed(deps: RulesSlice, principal: Principal, text: string): Promise<Project> {
  const wanted = text.trim().toLowerCase();
  const active = await deps.rules.listProjects(principal);
  const found = active.find((p) => p.project_id === text.trim() || p.name.toLowerCase() === wanted);
  if (found) return found;
  const names = active.slice(0, NAMES_SHOWN).map((p) => `"${p.name}"`);
  throw new DomainError(
    'INVALID_INPUT',
    `No active project you may read is named ${echo(text.trim())}. ` +
      (names.length > 0
        ? `Pass a name or id, e.g. ${names.join(', ')} (completion/complete on "project" lists them).`
        : 'Create one first with create_project.'),
    { field: 'project' },
  );
}

/** write-rule: turn a plain description into a saved, previewed rule for one project. */
export const writeRulePrompt = definePrompt({
  name: 'write-rule',
  title: 'Write a classification rule',
  description:
    'Guides you from a plain description ("meetings with Acme on Fridays") to a saved rule for a project, previewed before it is saved.',
  toolset: 'rules',
  needs: 'rules',
  arguments: [
    {
      name: 'description',
      description: 'Which calendar events the rule should classify, in plain words',
      required: true,
      example: 'meetings with people from Acme on Fridays',
      // What create_rule_from_description accepts, which the prompt has the agent call with it.
      schema: draftDescriptionInput,
    },
    {
      name: 'project',
      description: 'The project (name or id) the events belong to',
      required: true,
      example: 'Acme website',
      // A name or an id: project names are the longer (200), ids 64.
      schema: projectNameInput,
    },
  ],
  async render(deps, args, context) {
    const project = await projectNamed(deps, context.principal, args.project!);
    const description = args.description!;
    return {
      description: `Write a rule classifying "${description}" into ${project.name}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: SYNTAX_URI, mimeType: 'text/markdown', text: rulesSyntaxMarkdown() },
          },
        },
        userText(
          [
            `Write a timesheet classification rule that puts these calendar events into project "${project.name}" (project_id ${project.project_id}): ${description}`,
            '',
            `1. Draft the query: call create_rule_from_description with {"description": ${JSON.stringify(description)}, "project_id": "${project.project_id}"}, or write it yourself with the syntax above.`,
            `2. Check it: call preview_rule with the query and "project_id": "${project.project_id}". Look at the matches and at which events would move from another project; refine the query until it matches only the events meant.`,
            `3. Save it: call create_rule with the query (or the proposal_id) and "project_id": "${project.project_id}".`,
            '4. Tell me the saved query, how many events and minutes it matched, and anything it moved from another project.',
          ].join('\n'),
        ),
      ],
    };
  },
});

/** weekly-timesheet: one ISO week's timesheet, with the unclassified time turned into rule proposals. */
export const weeklyTimesheetPrompt = definePrompt({
  name: 'weekly-timesheet',
  title: 'Weekly timesheet',
  description:
    "Prepares one ISO week's timesheet by project, then proposes rules for the time no rule classified.",
  toolset: 'rules',
  needs: 'rules',
  arguments: [
    {
      name: 'week',
      description: 'The ISO week, YYYY-Www (default: the current week)',
      required: false,
      example: '2026-W48',
      // Bounded before the week is parsed; isoWeekWindow says what is wrong with the shape.
      schema: boundedString(MAX_SHORT_TEXT_LENGTH),
    },
  ],
  async render(deps, args) {
    // Imported on use: the week arithmetic pulls in luxon, which a Lambda cold start leaves out.
    const { isoWeekOf, isoWeekWindow } = await import('../../core/rules/iso-week.js');
    // The calendars' default zone, without building the calendars.
    const zone = serverZone(deps.defaultTimezone);
    const week = isoWeekWindow(args.week || isoWeekOf(deps.clock.now(), zone), zone);
    return {
      description: `Timesheet for ${week.week}`,
      messages: [
        userText(
          [
            `Prepare my timesheet for ISO week ${week.week} (${week.start} to ${week.end}, time zone ${zone}).`,
            '',
            `1. Call get_timesheet with {"start": "${week.start}", "end": "${week.end}", "group_by": "project"}.`,
            '2. Show a table per project: raw hours, rounded hours, billable hours; then the totals.',
            `3. If time is unclassified, list its largest clusters and call get_rule_suggestions with the same start and end. Propose the rules that would classify it (check each with preview_rule), but save none until I confirm.`,
          ].join('\n'),
        ),
      ],
    };
  },
});
