import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { PreviewOutput } from './preview-rule.js';
import { draftDescriptionInput, projectIdInput, RULES_READ, WindowOutput } from './rules-schemas.js';

export const createRuleFromDescriptionTool = defineTool({
  name: 'create_rule_from_description',
  title: 'Draft a rule from a description',
  description:
    'Turns plain language ("meetings with people from Acme on Fridays") into a query from the attendee ' +
    "domains, people, calendar names and title words of your calendars' events 90 days back to 90 ahead, plus " +
    'weekdays and times; says what it understood. A word it cannot place stays as text:word, named in ' +
    'not_understood and note. Previews the query. Never saves: pass proposal_id (or the query) to create_rule.',
  input: z.object({
    description: draftDescriptionInput.describe('What the events have in common.'),
    project_id: projectIdInput.optional().describe('The target project, to preview what would move.'),
  }),
  output: z.object({
    query: z.string().nullable(),
    understood: z.array(z.object({ text: z.string(), condition: z.string() })),
    not_understood: z.array(z.string()),
    note: z.string().optional(),
    window: WindowOutput,
    proposal_id: z.string().optional(),
    preview: PreviewOutput.optional(),
    saved: z.boolean(),
  }),
  annotations: RULES_READ,
  needs: 'rules',
  run: (deps, input, { principal, work }) => deps.rules.createRuleFromDescription(principal, input, work),
});
