import { z } from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { projectIdInput, RULES_READ, RuleOutput } from './rules-schemas.js';

export const listRulesTool = defineTool({
  name: 'list_rules',
  title: 'List rules',
  description:
    'Rules of the projects you may read, each with the events it matched and won in the last 30 days, ' +
    'and warnings (NEVER_MATCHED, ALWAYS_OUTRANKED).',
  input: z.object({
    project_id: projectIdInput.optional().describe("Only this project's rules."),
    format: outputFormat,
  }),
  output: z.object({
    rules: z.array(
      RuleOutput.extend({
        events_matched: z.number().int(),
        events_won: z.number().int(),
        warnings: z.array(z.object({ code: z.string(), message: z.string() })),
      }),
    ),
    count: z.number().int(),
  }),
  annotations: RULES_READ,
  needs: 'rules',
  run: async (deps, input, { principal, work }) => {
    // Asking for one project's rules without read on it is refused, not answered with an empty list.
    if (input.project_id) await deps.rules.access.require(principal, input.project_id, 'read');
    const all = await deps.rules.listRules(principal, work);
    const rules = input.project_id ? all.filter((r) => r.project_id === input.project_id) : all;
    return { rules, count: rules.length };
  },
  toonView: ({ rules, count }) => ({
    count,
    rules: rules.map(({ warnings, ...rule }) => ({
      ...rule,
      warnings: warnings.map((w) => w.code).join(' '),
    })),
  }),
});
