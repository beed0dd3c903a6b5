/**
 * One byte sequence per JSON value: object keys sorted by code unit, no whitespace, numbers and
 * strings as `JSON.stringify` writes them. Hashes taken over it (snapshot manifests, items) do not
 * depend on the order a map was filled in, and a reader can check that bytes it received are in
 * this form, so no two different byte strings verify as the same content.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new TypeError(`canonicalJson: ${value} has no JSON form.`);
    }
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form.`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
