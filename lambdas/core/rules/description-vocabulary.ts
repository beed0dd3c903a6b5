import type { RuleEvent } from './rule-events.js';
import { titleTerms } from './title-terms.js';

/** What the organization's own calendars mention: the words a description can be matched against. */
export interface Vocabulary {
  /** Attendee domains, and the first label of each (`acme` → `acme.com`). */
  readonly domains: ReadonlyMap<string, readonly string[]>;
  /** A first name or address local part (lower case) → the addresses it may stand for. */
  readonly people: ReadonlyMap<string, readonly string[]>;
  /** Calendar names, lower case, longest first. */
  readonly calendars: readonly string[];
  /** Words of event titles (lower case, no stop words): a description word found here is `title:`. */
  readonly titleWords: ReadonlySet<string>;
}

function add(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key) ?? [];
  if (!list.includes(value)) list.push(value);
  map.set(key, list);
}

/** Collects the vocabulary from events read for the principal (their own calendars only). */
export function vocabularyOf(events: readonly RuleEvent[], calendarNames: readonly string[]): Vocabulary {
  const domains = new Map<string, string[]>();
  const people = new Map<string, string[]>();
  const titleWords = new Set<string>();
  for (const event of events) {
    for (const term of titleTerms(event.view.summary)) if (!term.includes(' ')) titleWords.add(term);
    for (const attendee of event.facts.attendees) {
      const [local = '', domain = ''] = attendee.email.split('@');
      add(domains, domain, domain);
      add(domains, domain.split('.')[0]!, domain);
      add(people, local, attendee.email);
      const first = attendee.name?.split(/\s+/)[0];
      if (first && first.length >= 3) add(people, first, attendee.email);
    }
  }
  return {
    domains,
    people,
    calendars: [...new Set(calendarNames.map((n) => n.toLowerCase()))].sort((a, b) => b.length - a.length),
    titleWords,
  };
}
