import {
  type GetPromptResult,
  type Prompt,
  type PromptArgument,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { echo } from '../core/input-limits.js';
import type { DepsSlice, SliceDeps, ToolContext } from './deps.js';

/**
 * One argument of a prompt, with the example an error shows when it is missing or wrong and the
 * values it accepts: the same field a tool declares for it (projectIdField, branchIdField, …),
 * so an id a tool would refuse never reaches the store through a prompt, and every argument is
 * bounded.
 */
export interface PromptArgumentSpec extends PromptArgument {
  example: string;
  schema: z.ZodType<string, string>;
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
    arguments: prompt.arguments.map(({ example: _example, schema: _schema, ...argument }) => argument),
  };
}

/**
 * Refuses (-32602) arguments the prompt does not take, required ones left out or blank, and
 * values their schema refuses (too long, not an id), naming the argument, what it expects and an
 * example, so the caller can fix the request. Answers the values trimmed and as their schema
 * reads them; an optional argument sent blank is absent.
 *
 * @example
 * checkPromptArguments(resumeWorkPrompt, { project_id: 'p'.repeat(3000) });
 * // throws -32602: Prompt "resume-work" cannot use "pppp…" (3000 characters) for "project_id": Too long: …
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
  const checked: Record<string, string | undefined> = {};
  for (const argument of prompt.arguments) {
    const value = given[argument.name]?.trim();
    if (!value) continue;
    const parsed = argument.schema.safeParse(value);
    if (!parsed.success) {
      const problem = parsed.error.issues[0]?.message ?? 'not accepted';
      // A schema message that already shows an example (the id fields' do) needs no second one.
      const expected = problem.includes('e.g.')
        ? ''
        : ` "${argument.name}" is ${lowerFirst(argument.description ?? 'a value')} (e.g. "${argument.example}").`;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt "${prompt.name}" cannot use ${echo(value)} for "${argument.name}": ${problem}.${expected}`,
        { code: 'INVALID_INPUT', field: argument.name, example: argument.example },
      );
    }
    checked[argument.name] = parsed.data;
  }
  return checked;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
