import * as z from 'zod';
import { outputFormat } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { ProjectOutput, RULES_STORE_READ } from './rules-schemas.js';

export const listProjectsTool = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description:
    'Projects that rules classify calendar time into, with your access (read or write) on each. ' +
    'Only projects this key may read are listed.',
  input: z.object({
    include_archived: z.boolean().default(false).describe('Also list archived projects.'),
    format: outputFormat,
  }),
  output: z.object({ projects: z.array(ProjectOutput), count: z.number().int() }),
  annotations: RULES_STORE_READ,
  needs: 'rules',
  run: async (deps, input, { principal }) => {
    const projects = await deps.rules.listProjects(principal, { includeArchived: input.include_archived });
    return { projects, count: projects.length };
  },
});
