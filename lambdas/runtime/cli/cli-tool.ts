import type * as z from 'zod';
import { LOCAL_OWNER } from '../../core/access/rights.js';
import type { McpServerDeps } from '../../mcp/deps.js';
import { runToolCall } from '../../mcp/request-pipeline.js';
import type { ToolDefinition } from '../../mcp/tool-definition.js';
import { refusalOf } from '../../mcp/tool-refusal.js';

/** What a tool answered a CLI command: its structured output, and its text (CSV, when asked for). */
export interface CliToolAnswer<Output> {
  output: Output;
  text: string;
}

/**
 * A tool's arguments as a CLI command passes them: the tool's own field names (a misspelt one
 * does not compile), each value as the user typed it, so that the tool's validation, not a second
 * set of checks in the CLI, says what is wrong with it.
 */
export type CliArguments<Input extends z.ZodObject> = { [Field in keyof z.input<Input>]?: unknown };

/**
 * Runs an MCP tool for a CLI command, as the local owner, through the same pipeline as every
 * client: the command gets the tool's validation and its messages (field, expected shape,
 * example). The output is the tool's output schema's type, checked against it; a refusal is thrown
 * as the DomainError it was, for the CLI to print as it is.
 *
 * @example
 * const { output } = await runCliTool(runtime, listProjectsTool, { format: 'json' });
 * output.projects; // typed by list_projects' output schema
 */
export async function runCliTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  deps: McpServerDeps,
  tool: Pick<ToolDefinition<Input, Output>, 'name' | 'output'>,
  args: CliArguments<Input>,
): Promise<CliToolAnswer<z.output<Output>>> {
  const result = await answerOf(deps, tool.name, args);
  return { output: tool.output.parse(result.structuredContent), text: textOf(result) };
}

/**
 * Runs an MCP tool for a CLI command that prints what the tool rendered itself (`format: "csv"`,
 * `"toon"`): such an answer is text only, with no structured content to check (ADR 0024).
 *
 * @example
 * const csv = await runCliToolText(runtime, getTimesheetTool, { start, end, format: 'csv' });
 */
export async function runCliToolText<Input extends z.ZodObject>(
  deps: McpServerDeps,
  tool: Pick<ToolDefinition<Input>, 'name'>,
  args: CliArguments<Input>,
): Promise<string> {
  return textOf(await answerOf(deps, tool.name, args));
}

async function answerOf(deps: McpServerDeps, name: string, args: Record<string, unknown>) {
  const result = await runToolCall(deps, { principal: LOCAL_OWNER, client: 'cli' }, name, args);
  if (result.isError) {
    throw (
      refusalOf(result) ?? new Error(`${name} failed without a refusal Meridian writes: ${textOf(result)}`)
    );
  }
  return result;
}

function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  const [first] = result.content;
  return first?.type === 'text' ? (first.text ?? '') : '';
}
