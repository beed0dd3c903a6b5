import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode } from '@toon-format/toon';
import type { z } from 'zod';
import type { DomainError } from '../core/errors.js';
import { fieldHint } from './field-hints.js';
import { schemaAt } from './schema-walk.js';
import type { UnknownField } from './unknown-fields.js';

/**
 * A successful result: `structuredContent` for programs, text for models. Tools whose input has
 * `format: "toon"` get TOON text (fewer tokens for lists); everything else gets JSON text.
 */
export function successResult(
  structured: Record<string, unknown>,
  format: unknown,
  toonView: Record<string, unknown> = structured,
): CallToolResult {
  const text = format === 'toon' ? encode(toonView) : JSON.stringify(structured);
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A failure the caller can fix. No `structuredContent`: clients validate it against the
 * tool's outputSchema, which describes success only.
 */
export function domainErrorResult(error: DomainError): CallToolResult {
  const body = { error: { code: error.code, message: error.message, ...error.details } };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** One thing wrong with a tool's arguments: where, what, and what would be right. */
export interface InputProblem {
  field: string;
  problem: string;
  expected?: string;
  example?: string;
}

const fieldName = (path: readonly PropertyKey[]) => (path.length > 0 ? path.join('.') : '(arguments)');

function withHint(field: string, problem: string, schema: z.core.$ZodType | undefined): InputProblem {
  // A message that already shows an example (custom ones do) needs no generic hint after it.
  if (!schema || problem.includes('e.g.')) return { field, problem };
  const hint = fieldHint(schema);
  return { field, problem: `${problem}; expected ${hint.expected}, e.g. ${hint.example}`, ...hint };
}

function unknownFieldProblem(schema: z.core.$ZodType, unknown: UnknownField): InputProblem {
  const field = fieldName(unknown.path);
  if (unknown.closest === undefined) return { field, problem: 'unknown field: remove it' };
  const near = [...unknown.path.slice(0, -1), unknown.closest];
  return withHint(
    field,
    `unknown field: did you mean "${fieldName(near)}"? Remove it or rename it`,
    schemaAt(schema, near),
  );
}

/**
 * Turns zod issues (and fields the tool does not know) into one INVALID_INPUT result. Each problem
 * names the field, says what is wrong, what the field expects and gives an example; with `input`,
 * the expectations come from the tool's own schema.
 */
export function invalidInputResult(
  toolName: string,
  issues: readonly z.core.$ZodIssue[],
  input?: { schema: z.core.$ZodType; unknown?: readonly UnknownField[] },
): CallToolResult {
  const problems: InputProblem[] = [
    ...(input?.unknown ?? []).map((unknown) => unknownFieldProblem(input!.schema, unknown)),
    ...issues.map((issue) =>
      withHint(fieldName(issue.path), issue.message, input && schemaAt(input.schema, issue.path)),
    ),
  ];
  const summary = problems.map((p) => `"${p.field}": ${p.problem}`).join('; ');
  const body = {
    error: {
      code: 'INVALID_INPUT',
      message: `Invalid arguments for ${toolName}: ${summary}. See the tool's inputSchema in tools/list.`,
      problems,
    },
  };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
