// The flag's shape and the helpers that carry it, apart from the rules that set it
// (untrusted-text.ts): answers that only pass a stored flag on load no firewall rule.

/**
 * Flags for text Meridian stores but does not refuse: project memory (notes may discuss injection,
 * and a scanned README is what it is) and events synced from Google or CalDAV (written by other
 * clients, never through the write-time check). The flag is the id of the firewall rule the text
 * trips (`["override-instructions"]`), kept with the text and shown wherever it is returned, so the
 * agent reading it knows it holds instructions it must treat as data. Absent when nothing fired.
 */
export type Untrusted = string[];

/** `{ untrusted }` when there is something to say, `{}` otherwise: spread it into an answer. */
export function untrustedField(marks: readonly string[] | undefined): { untrusted?: Untrusted } {
  return marks && marks.length > 0 ? { untrusted: [...marks] } : {};
}

/** The rules of several flagged texts, once each, in first-seen order. */
export function unionOfMarks(lists: Iterable<readonly string[] | undefined>): Untrusted {
  const all = new Set<string>();
  for (const list of lists) for (const mark of list ?? []) all.add(mark);
  return [...all];
}
