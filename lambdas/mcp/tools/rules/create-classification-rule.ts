import * as z from 'zod';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { storedText } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import {
  projectIdInput,
  RuleOutput,
  ruleDescriptionInput,
  rulesWrite,
  weightInput,
} from './rules-schemas.js';

export const createClassificationRuleTool = defineTool({
  name: 'create_classification_rule',
  title: 'Create a rule from conditions',
  description:
    'Saves a rule from structured conditions; the server quotes, escapes and returns the query. ' +
    'Booleans take yes/no; time-of-day takes ">17:00"; day-of-week mon…sun.',
  input: z.object({
    project_id: projectIdInput,
    conditions: z
      .array(
        z.object({
          property: z.string().min(1).max(40).describe('e.g. domain, title, day-of-week, time-of-day.'),
          value: storedText(500).describe('e.g. "acme.com", "yes", ">17:00".'),
          negated: z.boolean().optional().describe('Match events WITHOUT this.'),
        }),
      )
      .min(1)
      .max(20)
      .describe('e.g. [{"property":"domain","value":"acme.com"}].'),
    logic: z.enum(['AND', 'OR']).default('AND'),
    weight: weightInput.optional(),
    description: ruleDescriptionInput.optional(),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({ rule: RuleOutput }),
  annotations: rulesWrite({ idempotent: false }),
  needs: 'rules',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => ({
    rule: await deps.rules.createClassificationRule(principal, input),
  }),
});
