import * as z from 'zod';
import { defineTool } from '../../tool-definition.js';
import { projectFieldInputs, projectNameInput } from './project-fields.js';
import { ifVersionInput, ProjectOutput, projectIdInput, rulesWrite } from './rules-schemas.js';

export const updateProjectTool = defineTool({
  name: 'update_project',
  title: 'Update a project',
  description:
    'Renames, archives (rules stop classifying into it) or changes billing fields of a project ' +
    'you have write access to. Only the fields given change.',
  input: z.object({
    project_id: projectIdInput,
    name: projectNameInput.optional().describe('New name.'),
    ...projectFieldInputs,
    archived: z.boolean().optional().describe('true archives, false restores.'),
    clear: z
      .array(z.enum(['client', 'color', 'rounding']))
      .max(3)
      .optional()
      .describe('Optional fields to remove.'),
    if_version: ifVersionInput.optional(),
  }),
  output: z.object({ project: ProjectOutput }),
  annotations: rulesWrite({ idempotent: true }),
  needs: 'rules',
  run: async (deps, input, { principal }) => {
    const { project_id, clear = [], if_version, ...fields } = input;
    const patch = { ...fields, ...Object.fromEntries(clear.map((f) => [f, null])) };
    return { project: await deps.rules.updateProject(principal, project_id, patch, if_version) };
  },
});
