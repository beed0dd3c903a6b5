import { distance } from 'fastest-levenshtein';
import type * as z from 'zod';
import { arrayElement, objectShapes } from './schema-walk.js';

const letters = (word: string) => [...word].sort().join('');

/**
 * The known name nearest in spelling, if near enough to be a typo. Levenshtein counts two swapped
 * letters as two edits, which would tie "stauts" between "status" and "start"; an anagram of the
 * same length scores one less.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const candidate of known) {
    const swapped = candidate.length === name.length && letters(candidate) === letters(name);
    const score = distance(name, candidate) - (swapped ? 1 : 0);
    if (best === undefined || score < best.score) best = { name: candidate, score };
  }
  const nearEnough = Math.max(2, Math.floor(name.length / 2));
  return best && best.score <= nearEnough ? best.name : undefined;
}

/** A field the caller sent that the tool does not know, with the known field nearest in spelling. */
export interface UnknownField {
  path: PropertyKey[];
  closest: string | undefined;
  /** The fields declared where it was found. */
  known: string[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every field in `value` that `schema` does not declare, at any depth. zod drops unknown keys
 * silently; a caller who sends `stauts` would otherwise get a success that ignored it.
 * Free-form records (no declared fields) are not checked.
 *
 * @example
 * unknownFields(z.object({ status: z.string() }), { stauts: 'x' }); // [{ path: ['stauts'], closest: 'status', known: ['status'] }]
 */
export function unknownFields(
  schema: z.core.$ZodType,
  value: unknown,
  path: PropertyKey[] = [],
): UnknownField[] {
  if (Array.isArray(value)) {
    const element = arrayElement(schema);
    return element ? value.flatMap((item, index) => unknownFields(element, item, [...path, index])) : [];
  }
  if (!isPlainObject(value)) return [];
  const shapes = objectShapes(schema);
  if (shapes.length === 0) return [];
  const known = [...new Set(shapes.flatMap((shape) => Object.keys(shape)))];
  return Object.entries(value).flatMap(([key, child]) => {
    const shape = shapes.find((s) => Object.hasOwn(s, key));
    if (shape?.[key]) return unknownFields(shape[key], child, [...path, key]);
    return [{ path: [...path, key], closest: closestName(key, known), known }];
  });
}
