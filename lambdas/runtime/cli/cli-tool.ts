import { LOCAL_OWNER } from '../../core/access/rights.js';
import { DomainError, type ErrorCode } from '../../core/errors.js';
import type { McpServerDeps } from '../../mcp/deps.js';
import { runToolCall } from '../../mcp/request-pipeline.js';

/** What a tool answered a CLI command: its structured output, and its text (CSV, when asked for). */
export interface CliToolAnswer<Output> {
  output: Output;
  text: string;
}

/**
 * Runs an MCP tool for a CLI command, as the local owner, through the same pipeline as every
 * client: the command gets the tool's validation and its messages (field, expected shape,
 * example) instead of a second set of checks that could drift. A refusal becomes a DomainError
 * the CLI prints as it is.
 *
 * @example
 * const { output } = await runCliTool<{ projects: Project[] }>(runtime, 'list_projects', { format: 'json' });
 */
export async function runCliTool<Output>(
  deps: McpServerDeps,
  name: string,
  args: Record<string, unknown>,
): Promise<CliToolAnswer<Output>> {
  const result = await runToolCall(deps, { principal: LOCAL_OWNER, client: 'cli' }, name, args);
  const [first] = result.content;
  const text = first?.type === 'text' ? first.text : '';
  if (result.isError) {
    const { code, message, ...details } = (JSON.parse(text) as { error: Record<string, unknown> }).error;
    throw new DomainError(code as ErrorCode, String(message), details);
  }
  return { output: result.structuredContent as Output, text };
}
