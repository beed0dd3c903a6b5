import * as z from 'zod';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { defineTool } from '../../tool-definition.js';
import {
  projectIdInput,
  proposalIdInput,
  queryInput,
  RuleOutput,
  ruleDescriptionInput,
  rulesWrite,
  weightInput,
} from './rules-schemas.js';

export const createRuleTool = defineTool({
  name: 'create_rule',
  title: 'Create a rule',
  description:
    'Saves a Gmail-style query that classifies matching events into a project (write access needed). ' +
    'Examples: domain:acme.com · title:"team meeting" · response:declined · ' +
    'day-of-week:sat OR day-of-week:sun · time-of-day:>17:00 · (domain:a.com OR domain:b.com) title:sync · ' +
    '-title:canceled. AND is implicit, OR binds tighter, - negates. Properties: title description attendees ' +
    'domain email response status recurring transparency is-all-day has-attendees day-of-week time-of-day calendar text. ' +
    'Test with preview_rule first.',
  input: z.object({
    query: queryInput.optional(),
    proposal_id: proposalIdInput.optional(),
    project_id: projectIdInput.optional().describe('From list_projects; may come from proposal_id.'),
    weight: weightInput.optional(),
    description: ruleDescriptionInput.optional(),
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({ rule: RuleOutput }),
  annotations: rulesWrite({ idempotent: false }),
  needs: 'rules',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => ({ rule: await deps.rules.createRule(principal, input) }),
});
