import {
  type GetPromptResult,
  type Prompt,
  type PromptArgument,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { echo } from '../core/input-limits.js';
import type { DepsSlice, SliceDeps, ToolContext } from './deps.js';

/** One argument of a prompt, with the example an error shows when it is missing or wrong. */
export interface PromptArgumentSpec extends PromptArgument {
  example: string;
}

/**
 * One MCP prompt: its public contract (name, arguments) and what it renders. Like a tool it
 * belongs to a toolset (off for a connection, it is neither listed nor served) and gets only
 * the slice it declares. `render` throws DomainError for a value the caller can fix.
 */
export interface PromptDefinition<Needs extends DepsSlice = DepsSlice> {
  name: string;
  title: string;
  description: string;
  toolset: string;
  needs: Needs;
  arguments: readonly PromptArgumentSpec[];
  render(
    deps: SliceDeps[Needs],
    args: Readonly<Record<string, string | undefined>>,
    context: ToolContext,
  ): Promise<GetPromptResult>;
}

/** Declares a prompt with its slice's type checked against `render`. */
export function definePrompt<Needs extends DepsSlice>(
  prompt: PromptDefinition<Needs>,
): PromptDefinition<Needs> {
  return prompt;
}

/** The prompts/list entry: the contract without the examples. */
export function promptListing(prompt: PromptDefinition): Prompt {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments.map(({ example: _example, ...argument }) => argument),
  };
}

/**
 * Refuses (-32602) arguments the prompt does not take and required ones left out or blank,
 * naming the argument, what it expects and an example, so the caller can fix the request.
 */
export function checkPromptArguments(
  prompt: PromptDefinition,
  args: Readonly<Record<string, string>> | undefined,
): Readonly<Record<string, string | undefined>> {
  const given = args ?? {};
  const known = prompt.arguments.map((argument) => argument.name);
  const unknown = Object.keys(given).find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt "${prompt.name}" takes no argument ${echo(unknown)}; it takes ${known.join(', ')}.`,
    );
  }
  const missing = prompt.arguments.find((argument) => argument.required && !given[argument.name]?.trim());
  if (missing) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Prompt "${prompt.name}" needs "${missing.name}": ${missing.description} (e.g. "${missing.example}").`,
    );
  }
  return given;
}
