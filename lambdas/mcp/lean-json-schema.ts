/**
 * Makes a tool's generated JSON Schemas lean for tools/list, which an agent pays for in tokens on
 * every conversation. Nothing here changes what a tool accepts or answers: the zod schemas still
 * validate every call, and a leaner output schema only accepts more.
 */

type Schema = { [keyword: string]: unknown };

/** Keywords whose values are schemas (or maps or lists of schemas) to walk into. */
const SUBSCHEMA_MAP_KEYWORDS = new Set(['properties', '$defs']);
const SUBSCHEMA_KEYWORDS = new Set(['items', 'anyOf', 'oneOf', 'allOf', 'not', 'additionalProperties']);

/** What an output schema keeps: the shape. Prose, limits, patterns and defaults are for inputs. */
const OUTPUT_KEYWORDS = new Set(['type', 'properties', 'items', 'anyOf', 'oneOf', 'enum', 'const']);

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rebuilds `schema` keeping the keywords `keep` accepts, at every depth. */
function prune(schema: Schema, keep: (keyword: string, schema: Schema) => boolean): Schema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    return isSchema(value) ? prune(value, keep) : value;
  };
  const lean: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!keep(keyword, schema)) continue;
    if (SUBSCHEMA_MAP_KEYWORDS.has(keyword) && isSchema(value)) {
      lean[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub)]));
    } else {
      lean[keyword] = SUBSCHEMA_KEYWORDS.has(keyword) ? walk(value) : value;
    }
  }
  return lean;
}

/** Drops the branch descriptions of a union that describes itself: the union's text covers them. */
function withoutBranchProse(schema: Schema): Schema {
  const union = schema.anyOf ?? schema.oneOf;
  if (typeof schema.description !== 'string' || !Array.isArray(union)) return schema;
  const branches = union.map((branch) =>
    isSchema(branch) ? prune(branch, (k) => k !== 'description') : branch,
  );
  return { ...schema, [schema.anyOf ? 'anyOf' : 'oneOf']: branches };
}

/**
 * An input schema for tools/list: every description, constraint and default stays (they tell an
 * agent what to send), minus what repeats — `$schema` (MCP fixes the dialect), a `pattern` beside
 * a `format` (zod writes the email regex out; the format already names it), and the
 * descriptions inside a union's branches when the union has its own.
 *
 * @example
 * leanInputSchema({ $schema: '…', type: 'object', properties: { to: { type: 'string', format: 'email', pattern: '…' } } });
 * // { type: 'object', properties: { to: { type: 'string', format: 'email' } } }
 */
export function leanInputSchema(schema: Schema): Schema {
  const pruned = prune(schema, (keyword, owner) => {
    if (keyword === '$schema') return false;
    return !(keyword === 'pattern' && 'format' in owner);
  });
  const walk = (node: Schema): Schema => {
    const lean = withoutBranchProse(node);
    const properties = lean.properties;
    if (!isSchema(properties)) return lean;
    return {
      ...lean,
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, sub]) => [name, isSchema(sub) ? walk(sub) : sub]),
      ),
    };
  };
  return walk(pruned);
}

/**
 * An output schema for tools/list: the shape only — types, properties, items, unions, enums.
 * Descriptions inside output schemas repeat the tool's description and the field names; limits,
 * patterns, defaults, `required` and `additionalProperties: false` check the server, not the agent.
 *
 * @example
 * leanOutputSchema({ type: 'object', properties: { n: { type: 'integer', description: 'Count.', minimum: 0 } }, required: ['n'] });
 * // { type: 'object', properties: { n: { type: 'integer' } } }
 */
export function leanOutputSchema(schema: Schema): Schema {
  // A record's value schema is shape too; `additionalProperties: false` is not.
  return prune(schema, (keyword, owner) =>
    keyword === 'additionalProperties' ? isSchema(owner[keyword]) : OUTPUT_KEYWORDS.has(keyword),
  );
}
