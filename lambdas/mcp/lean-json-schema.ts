import type * as z from 'zod';
import { HINT_EXAMPLE } from './field-hints.js';

/**
 * Makes a tool's generated JSON Schemas lean for tools/list, which an agent pays for in tokens on
 * every conversation (`npm run bench tool-listing`). Nothing here changes what a tool accepts or
 * answers: the zod schemas still validate every call, and a leaner output schema only accepts more.
 */

type Schema = { [keyword: string]: unknown };

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords whose value is a map of schemas, and those whose value is a schema or a list of them. */
const SCHEMA_MAPS = new Set(['properties', '$defs']);
const SCHEMA_VALUES = new Set(['items', 'anyOf', 'oneOf', 'allOf', 'not', 'additionalProperties']);

/**
 * Rebuilds a schema bottom-up: `visit` gets every schema node after its subschemas were rebuilt,
 * with the number of objects enclosing it (0 at the root), and returns the node to keep.
 */
function rebuild(schema: Schema, visit: (node: Schema, depth: number) => Schema, depth = 0): Schema {
  const inner = depth + (schema.type === 'object' ? 1 : 0);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    return isSchema(value) ? rebuild(value, visit, inner) : value;
  };
  const node: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(keyword) && isSchema(value)) {
      node[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub)]));
    } else {
      node[keyword] = SCHEMA_VALUES.has(keyword) ? walk(value) : value;
    }
  }
  return visit(node, depth);
}

/** The JSON Schema keyword of what tools/list shows for a field instead of its generated schema. */
const LISTED_AS = 'x-listed-as';
/** The keyword that marks an object whose fields another tool of the same toolset describes. */
const FIELDS_DESCRIBED_BY = 'x-fields-described-by';

/**
 * `schema`, shown in tools/list as `listed` (with the field's own description): for a union whose
 * exact branches cost an agent more words than they tell it, when the description says the rest.
 * The zod schema still validates every call, and INVALID_INPUT still names what was wrong.
 *
 * @example
 * listedAs(z.union([z.string(), z.object({ date: z.string() })]), { anyOf: [{ type: 'string' }, { type: 'object' }] });
 */
export const listedAs = <T extends z.ZodType>(schema: T, listed: Schema): T =>
  schema.meta({ [LISTED_AS]: listed }) as T;

/**
 * `schema` (an object), listed with its fields' types and limits but not their descriptions,
 * because `tool` of the same toolset lists the same fields described (a toolset is enabled whole,
 * so the two are always listed together). Errors still quote the descriptions (field-hints.ts).
 */
export const fieldsDescribedBy = <T extends z.ZodType>(schema: T, tool: string): T =>
  schema.meta({ [FIELDS_DESCRIBED_BY]: tool }) as T;

function listed(node: Schema): Schema {
  const replacement = node[LISTED_AS];
  if (isSchema(replacement))
    return { ...replacement, ...(node.description === undefined ? {} : { description: node.description }) };
  if (node[FIELDS_DESCRIBED_BY] === undefined || !isSchema(node.properties)) return node;
  const properties = Object.entries(node.properties).map(([name, field]) => [
    name,
    isSchema(field) ? without(field, (keyword) => keyword === 'description') : field,
  ]);
  return {
    ...without(node, (keyword) => keyword === FIELDS_DESCRIBED_BY),
    properties: Object.fromEntries(properties),
  };
}

function without(node: Schema, drop: (keyword: string) => boolean): Schema {
  return Object.fromEntries(Object.entries(node).filter(([keyword]) => !drop(keyword)));
}

/**
 * An input schema for tools/list: descriptions, limits and defaults stay (they tell an agent what
 * to send), minus what repeats or says nothing — `$schema` (MCP fixes the dialect), `minLength: 1`
 * (no agent sends an empty id or name on purpose; the server still refuses one), a `pattern` beside
 * a `format` (zod writes the email regex out; the format names it), the examples only errors give
 * (`x-hint-example`, field-hints.ts), and descriptions inside a
 * union's branches when the union has its own. A field may be listed in a shorter form of its own
 * (`listedAs`), or without the descriptions another tool gives its fields (`fieldsDescribedBy`).
 *
 * @example
 * leanInputSchema({ $schema: '…', type: 'object', properties: { to: { type: 'string', format: 'email', pattern: '…' } } });
 * // { type: 'object', properties: { to: { type: 'string', format: 'email' } } }
 */
export function leanInputSchema(schema: Schema): Schema {
  return rebuild(schema, (generated) => {
    const node = listed(generated);
    const lean = without(
      node,
      (keyword) =>
        keyword === '$schema' ||
        keyword === HINT_EXAMPLE ||
        (keyword === 'minLength' && node.minLength === 1) ||
        (keyword === 'pattern' && 'format' in node),
    );
    const union = lean.anyOf ?? lean.oneOf;
    if (typeof lean.description !== 'string' || !Array.isArray(union)) return lean;
    const branches = union.map((branch) =>
      isSchema(branch) ? rebuild(branch, (n) => without(n, (k) => k === 'description')) : branch,
    );
    return { ...lean, [lean.anyOf ? 'anyOf' : 'oneOf']: branches };
  });
}

/** What an output schema keeps: the shape. Prose, limits, patterns and defaults are for inputs. */
const OUTPUT_KEYWORDS = new Set(['type', 'properties', 'items', 'anyOf', 'oneOf', 'enum', 'const']);

/** A union whose branches all became the same bare type is that type. */
function collapseUnion(node: Schema): Schema {
  const union = node.anyOf ?? node.oneOf;
  if (!Array.isArray(union)) return node;
  const types = new Set(
    union.map((branch) => (isSchema(branch) && Object.keys(branch).length === 1 ? branch.type : undefined)),
  );
  const [type] = types;
  return types.size === 1 && typeof type === 'string' ? { type } : node;
}

/**
 * An output schema for tools/list: the shape only. The answer's fields keep their types, unions
 * and enums; the fields of a record inside it (an event in `events`) keep only their names (`{}`,
 * any value). Descriptions in output schemas repeat the tool's description and the field names;
 * limits, patterns, defaults, `required` and `additionalProperties: false` check the server, not
 * the agent; and every JSON answer carries its full structure in structuredContent.
 *
 * @example
 * leanOutputSchema({ type: 'object', properties: { n: { type: 'integer', description: 'Count.', minimum: 0 } }, required: ['n'] });
 * // { type: 'object', properties: { n: { type: 'integer' } } }
 */
export function leanOutputSchema(schema: Schema): Schema {
  return rebuild(schema, (node, depth) => {
    // Fields of the answer sit at depth 1; the fields of records inside it, deeper.
    if (depth > 1) return {};
    // A record's value schema is shape too; `additionalProperties: false` is not, nor `{}`: any
    // value, which an object allows anyway.
    const shape = without(node, (keyword) =>
      keyword === 'additionalProperties'
        ? !isSchema(node[keyword]) || Object.keys(node[keyword]).length === 0
        : !OUTPUT_KEYWORDS.has(keyword),
    );
    return collapseUnion(shape);
  });
}
