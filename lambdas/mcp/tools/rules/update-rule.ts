import * as z from 'zod';
import { storedText } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import {
  ifVersionInput,
  projectIdInput,
  queryInput,
  RuleOutput,
  ruleIdInput,
  rulesWrite,
  weightInput,
} from './rules-schemas.js';

export const updateRuleTool = defineTool({
  name: 'update_rule',
  title: 'Update a rule',
  description:
    "Changes a rule's query, project, weight or description (write access to its project, and to a new one). " +
    'Only the fields given change.',
  input: z.object({
    rule_id: ruleIdInput,
    query: queryInput.optional(),
    project_id: projectIdInput.optional(),
    weight: weightInput.optional(),
    description: storedText(500, { allowEmpty: true }).optional().describe('New description; "" removes it.'),
    if_version: ifVersionInput.optional(),
  }),
  output: z.object({ rule: RuleOutput }),
  annotations: rulesWrite({ idempotent: true }),
  needs: 'rules',
  run: async (deps, input, { principal }) => {
    const { rule_id, if_version, description, ...patch } = input;
    const rule = await deps.rules.updateRule(
      principal,
      rule_id,
      {
        ...patch,
        ...(description === undefined ? {} : { description: description === '' ? null : description }),
      },
      if_version,
    );
    return { rule };
  },
});
