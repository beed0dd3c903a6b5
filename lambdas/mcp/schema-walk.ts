import type * as z from 'zod';

/**
 * Small, read-only walks over a tool's zod input schema, for error messages: which fields exist at
 * a path, and which schema describes the value at a path. They follow wrappers (optional, default,
 * pipe input side…) and stop at anything else.
 */

type AnySchema = z.core.$ZodType;

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** The schema inside optional/default/… wrappers and on the input side of a pipe. */
export function unwrapSchema(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: AnySchema; in?: AnySchema };
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

/** The object options of a schema: itself when an object, each object option of a union. */
export function objectShapes(schema: AnySchema): Record<string, AnySchema>[] {
  const inner = unwrapSchema(schema);
  const def = inner._zod.def as { type: string; shape?: Record<string, AnySchema>; options?: AnySchema[] };
  if (def.type === 'object' && def.shape) return [def.shape];
  if (def.type === 'union' && def.options) return def.options.flatMap(objectShapes);
  return [];
}

/** The schema of the array elements, when `schema` is an array. */
export function arrayElement(schema: AnySchema): AnySchema | undefined {
  const def = unwrapSchema(schema)._zod.def as { type: string; element?: AnySchema };
  return def.type === 'array' ? def.element : undefined;
}

/** The schema of the value at `path`, or undefined when the walk cannot follow it. */
export function schemaAt(schema: AnySchema, path: readonly PropertyKey[]): AnySchema | undefined {
  let current: AnySchema | undefined = schema;
  for (const key of path) {
    if (current === undefined) return undefined;
    if (typeof key === 'number') {
      current = arrayElement(current);
      continue;
    }
    current = objectShapes(current).find((shape) => Object.hasOwn(shape, key))?.[key as string];
  }
  return current;
}
