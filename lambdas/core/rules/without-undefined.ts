/**
 * The fields whose value is not undefined: a validated tool input has its absent optional fields
 * as undefined, which a spread would write over a default.
 */
export function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
