import * as z from 'zod';

/**
 * What a field expects and one example, derived from its zod schema (via its JSON Schema, the same
 * one tools/list shows), so that every INVALID_INPUT says how to fix the value without each tool
 * writing its own messages.
 */
export interface FieldHint {
  expected: string;
  example: string;
}

/**
 * The JSON Schema keyword of an example only INVALID_INPUT gives: tools/list leaves it out
 * (lean-json-schema.ts). Every agent pays for a listed word on every tools/list; an error's hint
 * is read only by the agent that got the field wrong.
 */
export const HINT_EXAMPLE = 'x-hint-example';

/**
 * `schema`, with `example` as the value INVALID_INPUT suggests for it (zod keeps it through
 * `.describe()`, `.optional()` and refinements).
 *
 * @example
 * const zone = withHintExample(z.string().describe('IANA zone.'), 'Europe/London');
 */
export const withHintExample = <T extends z.ZodType>(schema: T, example: unknown): T =>
  schema.meta({ [HINT_EXAMPLE]: example }) as T;

interface JsonSchema {
  [HINT_EXAMPLE]?: unknown;
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
}

// The example a description gives after "e.g.": a quoted string, a list, an object or one word
// (without the colon or full stop after it).
const DESCRIBED_EXAMPLE = /e\.g\.,?\s*("[^"]*"|\[[^\]]*\]|\{[^}]*\}|[^\s,;:)]+?)[.:]?(?=[\s,;)]|$)/;

const FORMAT_EXAMPLES: Record<string, string> = {
  email: '"ana@example.com"',
  'date-time': '"2026-11-26T09:00:00Z"',
  date: '"2026-11-26"',
};

const range = (min: number | undefined, max: number | undefined): string => {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
};

function expectedOf(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(expectedOf).join(' or ');
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'email') return 'an email address';
      const kind = schema.minLength === 1 ? 'a non-empty string' : 'a string';
      const length = range(schema.minLength === 1 ? undefined : schema.minLength, schema.maxLength);
      return length ? `${kind} with a length${length}` : kind;
    }
    case 'integer':
      return `an integer${range(schema.minimum, schema.maximum)}`;
    case 'number':
      return `a number${range(schema.minimum, schema.maximum)}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list (${range(schema.minItems, schema.maxItems).trim() || 'any length'}) of ${schema.items ? expectedOf(schema.items) : 'values'}`;
    case 'object': {
      const required = new Set(schema.required ?? []);
      const fields = Object.keys(schema.properties ?? {}).map((key) => (required.has(key) ? key : `${key}?`));
      return fields.length > 0 ? `an object {${fields.join(', ')}}` : 'an object';
    }
    default:
      return 'a value';
  }
}

/** One word from a description, as JSON: `30` stays a number, `domain` becomes `"domain"`. */
function asJson(word: string): string {
  if (/^["[{]/.test(word)) return word;
  try {
    JSON.parse(word);
    return word;
  } catch {
    return JSON.stringify(word);
  }
}

function exampleOf(schema: JsonSchema): string {
  if (schema[HINT_EXAMPLE] !== undefined) return JSON.stringify(schema[HINT_EXAMPLE]);
  const described = schema.description?.match(DESCRIBED_EXAMPLE)?.[1];
  if (described) return asJson(described);
  if (schema.anyOf?.[0]) return exampleOf(schema.anyOf[0]);
  if (schema.enum?.length) return JSON.stringify(schema.enum[0]);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.default !== undefined && typeof schema.default !== 'object')
    return JSON.stringify(schema.default);
  switch (schema.type) {
    case 'string':
      return FORMAT_EXAMPLES[schema.format ?? ''] ?? '"text"';
    case 'integer':
    case 'number':
      return String(schema.minimum ?? schema.maximum ?? 1);
    case 'boolean':
      return 'true';
    case 'array':
      return `[${schema.items ? exampleOf(schema.items) : ''}]`;
    case 'object': {
      const required = schema.required ?? [];
      const entries = required.map((key) => `"${key}": ${exampleOf(schema.properties?.[key] ?? {})}`);
      return `{${entries.join(', ')}}`;
    }
    default:
      return 'null';
  }
}

/**
 * The hint for one field's schema.
 *
 * @example
 * fieldHint(z.number().int().min(1).max(1440)); // { expected: 'an integer from 1 to 1440', example: '1' }
 */
export function fieldHint(schema: z.core.$ZodType): FieldHint {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    json = {};
  }
  const expected = expectedOf(json);
  // Without an example of its own, the field's description is the best guide to the right value.
  const purpose = DESCRIBED_EXAMPLE.test(json.description ?? '')
    ? undefined
    : json.description?.split(/(?<=\.)\s/)[0];
  return { expected: purpose ? `${expected} (${purpose})` : expected, example: exampleOf(json) };
}
