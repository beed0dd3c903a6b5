import * as z from 'zod';
import { idempotencyKeyField } from '../../idempotent-call.js';
import { defineTool } from '../../tool-definition.js';
import { projectFieldInputs, projectNameInput } from './project-fields.js';
import { ProjectOutput, rulesWrite } from './rules-schemas.js';

export const createProjectTool = defineTool({
  name: 'create_project',
  title: 'Create a project',
  description:
    'Creates a project to classify calendar time into. Only this API key gets access to it (write) ' +
    'until the owner grants others (`meridian grants set KEY project/<id> read`).',
  input: z.object({
    name: projectNameInput.describe('Project name, e.g. "Acme website".'),
    ...projectFieldInputs,
    idempotency_key: idempotencyKeyField,
  }),
  output: z.object({ project: ProjectOutput }),
  annotations: rulesWrite({ idempotent: false }),
  needs: 'rules',
  idempotencyKey: true,
  run: async (deps, input, { principal }) => ({
    project: await deps.rules.createProject(principal, input),
  }),
});
