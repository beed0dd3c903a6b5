import { quoteValue } from './assemble-query.js';
import type { Vocabulary } from './description-vocabulary.js';
import { parseQuery } from './parse-query.js';
import { printQuery } from './print-query.js';

export interface UnderstoodPart {
  /** The words of the description. */
  text: string;
  /** The condition they became. */
  condition: string;
}

export interface DraftQuery {
  /** null when nothing in the description could be turned into a condition. */
  query: string | null;
  understood: UnderstoodPart[];
  /** Words found nowhere in the vocabulary: each stays in the query as a `text:` condition. */
  not_understood: string[];
}

const DAYS: Record<string, string> = {
  mon: 'mon',
  monday: 'mon',
  mondays: 'mon',
  tue: 'tue',
  tues: 'tue',
  tuesday: 'tue',
  tuesdays: 'tue',
  wed: 'wed',
  wednesday: 'wed',
  wednesdays: 'wed',
  thu: 'thu',
  thurs: 'thu',
  thursday: 'thu',
  thursdays: 'thu',
  fri: 'fri',
  friday: 'fri',
  fridays: 'fri',
  sat: 'sat',
  saturday: 'sat',
  saturdays: 'sat',
  sun: 'sun',
  sunday: 'sun',
  sundays: 'sun',
};

/** Fixed phrases and the condition each means. */
const PHRASES: [RegExp, string][] = [
  [/\bweekends?\b/, '(day-of-week:sat OR day-of-week:sun)'],
  [/\b(?:in the )?mornings?\b/, 'time-of-day:<12:00'],
  [/\b(?:in the )?afternoons?\b/, 'time-of-day:>=12:00'],
  [/\b(?:in the )?evenings?\b/, 'time-of-day:>=17:00'],
  [/\bdeclined\b/, 'response:declined'],
  [/\btentative\b/, 'response:tentative'],
  [/\bcancell?ed\b/, 'status:cancelled'],
  [/\b(?:recurring|repeating|regular)\b/, 'recurring:yes'],
  [/\ball[- ]day\b/, 'is-all-day:yes'],
  [/\b(?:one[- ]off|non[- ]recurring)\b/, 'recurring:no'],
  [/\b(?:without|no) (?:attendees|guests|other people)\b|\b(?:alone|solo)\b/, 'has-attendees:no'],
];

const TIME = /\b(after|before|from|until|at)\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b/;
const QUOTED = /"([^"]+)"|'([^']+)'|“([^”]+)”/;

/** Words that carry no condition: they are neither understood nor reported as missed. */
const FILLER = new Set(
  'a an the all any my our their with people person someone from at on in of to for and or that are is be me us them events event meetings meeting calls call time spent every each about team folks guys who where when which like also titled called named'.split(
    ' ',
  ),
);

const toMinutesText = (hour: number, minute: number) =>
  `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/**
 * A heuristic reading of a plain-language description into a query, from the organization's own
 * vocabulary: known attendee domains (`Acme` → `domain:acme.com`), people (`with Sarah` →
 * `email:sarah@…`), calendar names, title words, weekdays, times of day, responses, quoted titles.
 * A word it cannot place is kept as `text:word` and reported in `not_understood`, never dropped. No model and no sampling: stateless HTTP cannot
 * carry a sampling request, and the newest spec revision deprecates it.
 *
 * @example
 * draftQuery('meetings with people from Acme on Fridays', vocabulary);
 * // { query: 'domain:acme.com day-of-week:fri', understood: [...], not_understood: [] }
 */
export function draftQuery(description: string, vocabulary: Vocabulary): DraftQuery {
  let text = description;
  let rest = ` ${text.toLowerCase()} `;
  const understood: UnderstoodPart[] = [];
  const take = (match: RegExpExecArray, condition: string) => {
    understood.push({ text: match[0].trim(), condition });
    rest = `${rest.slice(0, match.index)} ${rest.slice(match.index + match[0].length)}`;
  };
  for (let m = QUOTED.exec(text); m; m = QUOTED.exec(text)) {
    const phrase = m[1] ?? m[2] ?? m[3] ?? '';
    understood.push({ text: m[0], condition: `title:${quoteValue(phrase)}` });
    text = text.replace(m[0], ' ');
    rest = rest.replace(m[0].toLowerCase(), ' ');
  }
  for (const calendar of vocabulary.calendars) {
    const at = rest.indexOf(` ${calendar} `);
    if (calendar.length >= 3 && at >= 0) {
      understood.push({ text: calendar, condition: `calendar:${quoteValue(calendar)}` });
      rest = `${rest.slice(0, at)} ${rest.slice(at + calendar.length + 1)}`;
      rest = rest.replace(/\bcalendar\b/, ' ');
    }
  }
  for (let m = TIME.exec(rest); m; m = TIME.exec(rest)) {
    let hour = Number(m[2]);
    const minute = Number(m[3] ?? 0);
    if (m[4] === 'pm' && hour < 12) hour += 12;
    if (m[4] === 'am' && hour === 12) hour = 0;
    if (hour > 23 || minute > 59) break;
    const operator = m[1] === 'after' || m[1] === 'from' ? '>=' : m[1] === 'at' ? '' : '<';
    take(m, `time-of-day:${operator}${toMinutesText(hour, minute)}`);
  }
  for (const [pattern, condition] of PHRASES) {
    const m = pattern.exec(rest);
    if (m) take(m, condition);
  }
  const days: string[] = [];
  const missed: string[] = [];
  for (const word of rest.split(/[^\p{L}\p{N}@.-]+/u).filter(Boolean)) {
    const clean = word.replace(/^[.-]+|[.-]+$/g, '');
    if (DAYS[clean]) {
      days.push(DAYS[clean]!);
      understood.push({ text: word, condition: `day-of-week:${DAYS[clean]}` });
    } else {
      const condition = vocabularyCondition(clean, vocabulary);
      if (condition) understood.push({ text: word, condition });
      else if (!carriesNothing(clean)) missed.push(clean);
    }
  }
  // Several weekdays mean any of them ("Mondays and Fridays"), not all at once.
  const conditions = understood
    .filter((u) => !u.condition.startsWith('day-of-week:'))
    .map((u) => u.condition);
  if (days.length > 0) conditions.push(orOf([...new Set(days)].map((d) => `day-of-week:${d}`)));
  // A word it cannot place narrows the draft as a bare word does in the query language, rather than
  // vanish: dropped, "meetings with Globex on Fridays" became every Friday (issue 22). With
  // nothing placed at all there is no draft: unknown words alone are a guess, not a reading.
  if (conditions.length > 0) conditions.push(...missed.map((word) => `text:${quoteValue(word)}`));
  return {
    query: conditions.length > 0 ? printQuery(parseQuery(conditions.join(' '))) : null,
    understood,
    not_understood: missed,
  };
}

const carriesNothing = (word: string) => word.length <= 1 || FILLER.has(word) || word === 'calendar';

/** The condition a word of the description stands for in the vocabulary: a domain, a person, a title word. */
function vocabularyCondition(word: string, vocabulary: Vocabulary): string | undefined {
  const domains = vocabulary.domains.get(word);
  if (domains) return orOf(domains.map((d) => `domain:${d}`));
  const emails = vocabulary.people.get(word);
  if (emails) return orOf(emails.map((e) => `email:${e}`));
  if (carriesNothing(word)) return undefined;
  const title = titleWordOf(word, vocabulary);
  return title ? `title:${quoteValue(title)}` : undefined;
}

/** The title word a description word stands for: itself, or its singular ("workshops"). */
function titleWordOf(word: string, vocabulary: Vocabulary): string | undefined {
  if (vocabulary.titleWords.has(word)) return word;
  const singular = word.endsWith('s') ? word.slice(0, -1) : undefined;
  return singular && vocabulary.titleWords.has(singular) ? singular : undefined;
}

/**
 * What the answer says about the words it could not place, naming where it looked; nothing when
 * every word was placed.
 */
export function unplacedNote(draft: DraftQuery, window: { start: string; end: string }): { note?: string } {
  if (draft.not_understood.length === 0) return {};
  const words = draft.not_understood.map((w) => `'${w}'`).join(', ');
  return {
    note:
      `${words}: no attendee domain, person, calendar name or title word of your calendars from ${window.start} to ${window.end} ` +
      'matches; kept as text: conditions (title, description or attendee contains the word), so the draft matches ' +
      'only events that mention it. Rephrase, or edit the query before create_rule.',
  };
}

function orOf(conditions: readonly string[]): string {
  return conditions.length === 1 ? conditions[0]! : `(${conditions.join(' OR ')})`;
}
