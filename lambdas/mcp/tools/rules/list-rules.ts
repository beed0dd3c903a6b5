import * as z from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { projectIdInput, RULES_READ, RuleOutput, WindowOutput } from './rules-schemas.js';

export const listRulesTool = defineTool({
  name: 'list_rules',
  title: 'List rules',
  description:
    'Rules of the projects you may read, each with the counted events it matched (of them upcoming) and won ' +
    '30 days back to 30 ahead (the answer says the window), and warnings (NEVER_MATCHED: none in it; ' +
    'ALWAYS_OUTRANKED).',
  input: z.object({
    project_id: projectIdInput.optional().describe("Only this project's rules."),
    format: outputFormat,
  }),
  output: z.object({
    rules: z.array(
      RuleOutput.extend({
        events_matched: z.number().int(),
        events_upcoming: z.number().int(),
        events_won: z.number().int(),
        warnings: z.array(z.object({ code: z.string(), message: z.string() })),
      }),
    ),
    count: z.number().int(),
    window: WindowOutput,
  }),
  annotations: RULES_READ,
  needs: 'rules',
  run: async (deps, input, { principal, work }) => {
    // Asking for one project's rules without read on it is refused, not answered with an empty list.
    if (input.project_id) await deps.rules.access.require(principal, input.project_id, 'read');
    const { rules: all, window } = await deps.rules.listRules(principal, {}, work);
    const rules = input.project_id ? all.filter((r) => r.project_id === input.project_id) : all;
    return { rules, count: rules.length, window };
  },
  toonView: ({ rules, count, window }) => ({
    count,
    window,
    rules: rules.map(({ warnings, ...rule }) => ({
      ...rule,
      warnings: warnings.map((w) => w.code).join(' '),
    })),
  }),
});
