import type * as z from 'zod';
import { echo, excerpt } from '../core/input-limits.js';
import { fieldHint } from './field-hints.js';
import { schemaAt } from './schema-walk.js';
import type { UnknownField } from './unknown-fields.js';

/** One thing wrong with a tool's arguments: where, what, and what would be right. */
export interface InputProblem {
  field: string;
  problem: string;
  expected?: string;
  example?: string;
}

/** The arguments as sent, the schema they were checked against, and the fields it does not know. */
export interface ToolInput {
  schema: z.core.$ZodType;
  raw: unknown;
  unknown?: readonly UnknownField[];
}

const fieldName = (path: readonly PropertyKey[]) => (path.length > 0 ? path.join('.') : '(arguments)');

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let current = raw;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** What is wrong, said plainly: zod's wording for a missing field or a wrong option repeats the hint. */
function whatIsWrong(issue: z.core.$ZodIssue, raw: unknown): string {
  if (issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined) return 'required, missing';
  if (issue.code === 'invalid_value') {
    // Quoted and cut: a long wrong value never comes back in full (the fuzz test found one).
    const given = valueAt(raw, issue.path);
    return `${typeof given === 'string' ? echo(given) : excerpt(JSON.stringify(given) ?? String(given))} is not allowed`;
  }
  return issue.message;
}

function withHint(field: string, problem: string, schema: z.core.$ZodType | undefined): InputProblem {
  // A message that already shows an example (custom ones do) needs no generic hint after it.
  if (!schema || problem.includes('e.g.')) return { field, problem };
  const hint = fieldHint(schema);
  return { field, problem: `${problem}; expected ${hint.expected}, e.g. ${hint.example}`, ...hint };
}

function unknownFieldProblem(schema: z.core.$ZodType, unknown: UnknownField): InputProblem {
  const field = fieldName(unknown.path);
  if (unknown.closest === undefined) {
    const known = unknown.known.map((name) => `"${name}"`).join(', ');
    return { field, problem: `unknown field: remove it; the fields here are ${known}` };
  }
  const near = [...unknown.path.slice(0, -1), unknown.closest];
  return withHint(
    field,
    `unknown field: did you mean "${fieldName(near)}"? Remove it or rename it`,
    schemaAt(schema, near),
  );
}

/**
 * Every problem with a tool's arguments, each naming the field, what is wrong, what the field
 * expects and an example. Without `input` (no schema at hand), zod's messages alone.
 *
 * @example
 * inputProblems(issues, { schema: tool.input, raw: args, unknown: unknownFields(tool.input, args) });
 */
export function inputProblems(issues: readonly z.core.$ZodIssue[], input?: ToolInput): InputProblem[] {
  if (!input) return issues.map((issue) => ({ field: fieldName(issue.path), problem: issue.message }));
  return [
    ...(input.unknown ?? []).map((unknown) => unknownFieldProblem(input.schema, unknown)),
    ...issues.map((issue) =>
      withHint(fieldName(issue.path), whatIsWrong(issue, input.raw), schemaAt(input.schema, issue.path)),
    ),
  ];
}
