import * as z from 'zod';
import { initializeContext } from '../../../core/memory/folders/initialize-context.js';
import { boundedString } from '../../schemas.js';
import { defineTool } from '../../tool-definition.js';
import { MEMORY_WRITE } from './memory-fields.js';

const SCAN_MESSAGES = {
  folder: 'Scanned the folder on this machine',
  unavailable:
    'This server cannot read your disk (project_path only names the project); send files as files: [{path, content}]',
  skipped: 'mode none: folder not scanned',
} as const;

export const initializeContextTool = defineTool({
  name: 'initialize_context',
  title: 'Initialize project memory',
  description:
    'Finds or creates your project for a folder path and stores its files (secrets redacted). The server reads the folder ' +
    'only for its local owner (stdio) or inside folders its administrator lists; otherwise the path only names the ' +
    'project: send files. Returns project_id for the other memory tools.',
  input: z.object({
    project_path: boundedString(1024).describe(
      'Absolute path of the project folder, e.g. "/home/ann/shop"; the same path finds the same project.',
    ),
    mode: z
      .enum(['light', 'full', 'none'])
      .default('light')
      .describe('light: README, entry points, config; full: every text file; none: no scan.'),
    files: z
      .array(
        z.object({
          path: boundedString(512)
            .refine(
              (path) => !/^[/\\]/.test(path) && !path.split(/[/\\]/).includes('..'),
              'expected a relative path without "..", e.g. "src/app.ts"',
            )
            .describe('Relative, e.g. "src/app.ts".'),
          content: z.string().max(16_000),
        }),
      )
      .max(100)
      .default([])
      .describe('Files to store, when the server cannot read the folder.'),
  }),
  output: z.object({
    success: z.boolean(),
    project_id: z.string(),
    project_name: z.string(),
    project_created: z.boolean(),
    mode: z.string(),
    scan: z.enum(['folder', 'unavailable', 'skipped']),
    files_scanned: z.number().int(),
    files_from_agent: z.number().int(),
    files_skipped: z.number().int(),
    secrets_redacted: z.number().int(),
    message: z.string(),
  }),
  annotations: { ...MEMORY_WRITE, idempotentHint: true },
  needs: 'memory',
  run: async (deps, input, { principal }) => {
    const result = await initializeContext(deps.memory.deps, principal, input);
    const stored = result.files_scanned + result.files_from_agent;
    return {
      success: true,
      project_id: result.project.project_id,
      project_name: result.project.name,
      project_created: result.project_created,
      mode: input.mode,
      scan: result.scan,
      files_scanned: result.files_scanned,
      files_from_agent: result.files_from_agent,
      files_skipped: result.files_skipped,
      secrets_redacted: result.secrets_redacted,
      message:
        `${SCAN_MESSAGES[result.scan]}${result.scan_truncated ? ' (stopped at the size limit)' : ''}; ` +
        `stored ${stored} file${stored === 1 ? '' : 's'}.`,
    };
  },
});
