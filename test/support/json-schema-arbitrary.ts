import fc from 'fast-check';

/** The part of JSON Schema (2020-12) that zod's z.toJSONSchema writes for Meridian's tool inputs. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/**
 * Values for a string field beyond what the schema's shape suggests: the caller's strings that
 * broke Meridian before (huge zone names, impossible offsets, years past 9999) and their kin.
 * Keyed by field name; `*` applies to every string.
 */
export type StringPools = Record<string, readonly string[]>;

/** Arguments the schema describes, plus values that break its rules a little or a lot. */
export interface SchemaArbitraryOptions {
  pools: StringPools;
  /** Most items of a generated array (tools accept up to 200 attendees; fewer keep runs fast). */
  maxArrayItems?: number;
}

function stringArbitrary(schema: JsonSchema, field: string, options: SchemaArbitraryOptions) {
  const pooled = [...(options.pools[field] ?? []), ...(options.pools['*'] ?? [])];
  const sized = fc.string({
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 80, 80),
    unit: fc.oneof(
      fc.constantFrom(...'aZ09 -+:T#%/._@'.split('')),
      fc.string({ minLength: 1, maxLength: 1 }),
    ),
  });
  const arbitraries: fc.Arbitrary<string>[] = [sized, fc.string({ unit: 'grapheme', maxLength: 40 })];
  if (schema.pattern) arbitraries.push(fc.stringMatching(new RegExp(schema.pattern)));
  if (schema.maxLength !== undefined) {
    // Both sides of the limit, in one-byte and in four-byte characters.
    arbitraries.push(
      fc.constantFrom(
        'a'.repeat(schema.maxLength),
        'a'.repeat(schema.maxLength + 1),
        '😀'.repeat(Math.ceil(schema.maxLength / 2)),
      ),
    );
  }
  if (pooled.length > 0)
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pooled) }, ...arbitraries);
  return fc.oneof(...arbitraries);
}

function numberArbitrary(schema: JsonSchema) {
  const integer = schema.type === 'integer';
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  const inRange = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    fc.constantFrom(min - 1, max + 1, 0.5, -0, Number.MAX_SAFE_INTEGER, -1e308),
  );
}

/**
 * A fast-check arbitrary of values for a tool's published inputSchema: mostly well-shaped (every
 * required property, some optional ones) with strings drawn from the pools, sometimes a wrong
 * type or an out-of-range number, so both the schema and the tool behind it are exercised.
 *
 * @example
 * fc.sample(schemaArbitrary({ type: 'string', maxLength: 3 }, '', { pools: {} }), 2);
 */
export function schemaArbitrary(
  schema: JsonSchema,
  field: string,
  options: SchemaArbitraryOptions,
): fc.Arbitrary<unknown> {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((variant) => schemaArbitrary(variant, field, options)));
  if (schema.enum) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...schema.enum) }, fc.string());
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema, field, options);
    case 'number':
    case 'integer':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArbitrary(schema.items ?? {}, field, options), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, options.maxArrayItems ?? 5),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        // A wrong type now and then: the tool must say which field, not fail.
        record[name] = fc.oneof(
          { weight: 12, arbitrary: schemaArbitrary(property, name, options) },
          fc.jsonValue({ maxDepth: 2 }),
        );
      }
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
