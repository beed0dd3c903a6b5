import { DateTime } from 'luxon';
import { DomainError, isDomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import type { TimeDeps } from '../ports.js';
import { resolveDatetime } from '../time/resolve/resolve-datetime.js';
import type { EventDraft } from './event.js';

/** What quick_add understood from the text, returned so the caller can check it. */
export interface QuickAddReading {
  summary: string;
  time_expression: string;
  location?: string;
  all_day: boolean;
  start: string;
  end: string;
  duration_minutes: number;
  timezone: string;
}

const MAX_WORDS = 40;
const DEFAULT_MINUTES = 60;
// Words that make an expression a time of day rather than a whole day.
const HAS_TIME =
  /\d|noon|midnight|morning|afternoon|evening|tonight|\beob\b|\beod\b|end of (?:business|day)|now|\bhours?\b|\bminutes?\b|ago/;
const DURATION = /\bfor (\d+(?:\.\d+)?) ?(minutes?|mins?|hours?|hrs?|h)\b/i;
const LOCATION = /^(?:at|in|@)\s+(.+)$/i;

function durationOf(text: string): { minutes: number; rest: string } {
  const match = DURATION.exec(text);
  if (!match) return { minutes: DEFAULT_MINUTES, rest: text };
  const amount = Number(match[1]);
  const minutes = /^h/i.test(match[2]!) ? Math.round(amount * 60) : Math.round(amount);
  return {
    minutes,
    rest: `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`.trim(),
  };
}

/**
 * Reads "Lunch with Alice tomorrow at noon at Cafe Rio": the longest run of words the time core
 * resolves becomes the time (here "tomorrow at noon"), the words before it the title, and an
 * "at …"/"in …" after it the location. "for 30 minutes" sets the length (default 60). A day
 * without a time of day makes an all-day event. Uses resolve_datetime's own grammar, so the two
 * tools read time the same way.
 *
 * @example
 * readQuickAdd(deps, 'Dentist Friday at 2pm', 'Europe/London').summary; // 'Dentist'
 */
export function readQuickAdd(
  deps: TimeDeps,
  text: string,
  timezone: string | undefined,
): { draft: EventDraft; reading: QuickAddReading } {
  const { minutes, rest } = durationOf(text.trim());
  const words = rest.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  let best: { from: number; to: number; resolved: ReturnType<typeof resolveDatetime> } | undefined;
  for (let from = 0; from < words.length; from++) {
    for (let to = words.length; to > from; to--) {
      if (best && to - from <= best.to - best.from) break;
      const expression = words.slice(from, to).join(' ');
      if (/^(at|in|on|for)$/i.test(words[from]!) && to - from === 1) continue;
      try {
        best = { from, to, resolved: resolveDatetime(deps, { expression, timezone }) };
        break;
      } catch (error) {
        if (!isDomainError(error)) throw error;
      }
    }
  }
  if (!best) {
    throw new DomainError(
      'UNRECOGNIZED_EXPRESSION',
      `Found no date or time in ${echo(text)}. Include one, e.g. "Lunch with Alice tomorrow at noon at Cafe Rio".`,
    );
  }
  const expressionWords = words.slice(best.from, best.to);
  // "on" before the time and "at" before a location are glue, not part of the title.
  const summary = words
    .slice(0, best.from)
    .join(' ')
    .replace(/\s+(on|at)$/i, '')
    .trim();
  const after = words.slice(best.to).join(' ').trim();
  const location = LOCATION.exec(after)?.[1]?.trim();
  const title = summary || (location ? '' : after) || 'Event';
  const expression = expressionWords.join(' ');
  const allDay = !HAS_TIME.test(expression.toLowerCase());
  const start = DateTime.fromISO(best.resolved.resolved_local, { setZone: true }).setZone(
    best.resolved.timezone,
  );
  const draft: EventDraft = allDay
    ? {
        summary: title,
        start: { date: start.toISODate()! },
        end: { date: start.plus({ days: 1 }).toISODate()! },
      }
    : {
        summary: title,
        start: { date_time: best.resolved.resolved_local, time_zone: best.resolved.timezone },
        end: {
          date_time: start.plus({ minutes }).toISO({ suppressMilliseconds: true })!,
          time_zone: best.resolved.timezone,
        },
      };
  if (location) draft.location = location;
  return {
    draft,
    reading: {
      summary: title,
      time_expression: expression,
      ...(location ? { location } : {}),
      all_day: allDay,
      start: allDay ? start.toISODate()! : best.resolved.resolved_local,
      end: allDay
        ? start.plus({ days: 1 }).toISODate()!
        : start.plus({ minutes }).toISO({ suppressMilliseconds: true })!,
      duration_minutes: allDay ? 1440 : minutes,
      timezone: best.resolved.timezone,
    },
  };
}
