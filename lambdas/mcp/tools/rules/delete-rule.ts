import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { ifVersionInput, ruleIdInput, rulesWrite } from './rules-schemas.js';

export const deleteRuleTool = defineTool({
  name: 'delete_rule',
  title: 'Delete a rule',
  description:
    'Deletes a rule (write access to its project); events it classified fall to the next matching rule.',
  input: z.object({ rule_id: ruleIdInput, if_version: ifVersionInput.optional() }),
  output: z.object({ rule_id: z.string(), deleted: z.boolean() }),
  annotations: rulesWrite({ idempotent: true, destructive: true }),
  needs: 'rules',
  run: (deps, input, { principal }) => deps.rules.deleteRule(principal, input.rule_id, input.if_version),
});
