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

function without(node: Schema, drop: (keyword: string) => boolean): Schema {
  return Object.fromEntries(Object.entries(node).filter(([keyword]) => !drop(keyword)));
}

/**
 * An input schema for tools/list: descriptions, limits and defaults stay (they tell an agent what
 * to send), minus what repeats or says nothing — `$schema` (MCP fixes the dialect), `minLength: 1`
 * (no agent sends an empty id or name on purpose; the server still refuses one), a `pattern` beside
 * a `format` (zod writes the email regex out; the format names it), the examples only errors give
 * (`x-hint-example`, field-hints.ts), and descriptions inside a
 * union's branches when the union has its own.
 *
 * @example
 * leanInputSchema({ $schema: '…', type: 'object', properties: { to: { type: 'string', format: 'email', pattern: '…' } } });
 * // { type: 'object', properties: { to: { type: 'string', format: 'email' } } }
 */
export function leanInputSchema(schema: Schema): Schema {
  return rebuild(schema, (node) => {
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
 * the agent; and every answer carries its full structure in structuredContent.
 *
 * @example
 * leanOutputSchema({ type: 'object', properties: { n: { type: 'integer', description: 'Count.', minimum: 0 } }, required: ['n'] });
 * // { type: 'object', properties: { n: { type: 'integer' } } }
 */
export function leanOutputSchema(schema: Schema): Schema {
  return rebuild(schema, (node, depth) => {
    // Fields of the answer sit at depth 1; the fields of records inside it, deeper.
    if (depth > 1) return {};
    // A record's value schema is shape too; `additionalProperties: false` is not.
    const shape = without(node, (keyword) =>
      keyword === 'additionalProperties' ? !isSchema(node[keyword]) : !OUTPUT_KEYWORDS.has(keyword),
    );
    return collapseUnion(shape);
  });
}
