// In a `u` regular expression a surrogate pair is one code point, so \p{Cs} matches only the lone halves.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * `value` with every lone surrogate in its strings (keys included) replaced by U+FFFD, or `value`
 * itself when it has none. The TOON encoder refuses such strings, and text stored before the
 * sanitiser (schemas.ts `storedText`) may hold them: an answer must never fail on stored text.
 *
 * @example
 * wellFormed({ name: 'D project \uD800' }); // { name: 'D project \uFFFD' }
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string')
    return (LONE_SURROGATE.test(value) ? value.replace(LONE_SURROGATES, '\uFFFD') : value) as T;
  if (Array.isArray(value)) {
    const items = value.map(wellFormed);
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (typeof value !== 'object' || value === null) return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const entry = [wellFormed(key), wellFormed(item)] as const;
    changed ||= entry[0] !== key || entry[1] !== item;
    return entry;
  });
  return changed ? (Object.fromEntries(entries) as T) : value;
}
