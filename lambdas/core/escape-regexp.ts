/**
 * `text` with every regular-expression metacharacter escaped, so it matches itself literally
 * inside a `new RegExp(...)` (`/` included, which only a regex literal would need).
 *
 * @example
 * new RegExp(`^${escapeRegExp('v1.2')}$`).test('v1x2'); // false
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
