/** Words too common in meeting titles to say anything about a project. */
const STOPWORDS = new Set(
  'the a an and or of to for with in on at by from re fw fwd call meeting meet sync chat weekly daily my our your is are be this that'.split(
    ' ',
  ),
);

/**
 * The terms of a title for phrase suggestions: lower-cased words of two or more letters that are
 * not stop words, and each pair of such words that stand next to each other in the title (so
 * `title:"design review"` matches the titles it came from).
 *
 * @example
 * titleTerms('Acme Design Review with Bob'); // ['acme', 'design', 'review', 'bob', 'acme design', 'design review']
 */
export function titleTerms(title: string): string[] {
  const words = title.toLowerCase().split(/\s+/);
  const kept = (w: string | undefined) =>
    w !== undefined && /^[\p{L}\p{N}]{2,}$/u.test(w) && /\p{L}/u.test(w) && !STOPWORDS.has(w);
  const singles = words.filter(kept);
  const pairs = words.slice(1).flatMap((w, i) => (kept(words[i]) && kept(w) ? [`${words[i]} ${w}`] : []));
  return [...singles, ...pairs];
}
