import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';
import { type EventView, toEventView } from '../../../lambdas/core/calendar/event-view.js';
import { Classifier, compareRules, compileRule, rankMatches } from '../../../lambdas/core/rules/classify.js';
import { matchesQuery } from '../../../lambdas/core/rules/evaluate-query.js';
import { parseQuery } from '../../../lambdas/core/rules/parse-query.js';
import { printQuery } from '../../../lambdas/core/rules/print-query.js';
import type { QueryNode } from '../../../lambdas/core/rules/query-ast.js';
import { toClassifiable } from '../../../lambdas/core/rules/to-classifiable.js';

const RUNS = Number(process.env.MERIDIAN_FUZZ_RUNS ?? 500);
const OWNER = 'me@ours.io';
const CALENDAR = 'Work Calendar';
const ADDRESSES = [OWNER, 'bob@acme.com', 'ann@eu.acme.com', 'li@beta.org', 'Zed@Acme.com'];
const WORDS = ['Standup', 'sync', 'Acme', 'review', 'canceled', '1:1', 'team meeting', 'Retro'];
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'UTC'];

const rawEvent = fc
  .record({
    title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    description: fc.array(fc.constantFrom(...WORDS, 'notes'), { maxLength: 3 }),
    attendees: fc.uniqueArray(
      fc.record({
        email: fc.constantFrom(...ADDRESSES),
        response_status: fc.constantFrom('accepted', 'declined', 'tentative', 'needsAction' as const),
        display_name: fc.option(fc.constantFrom('Sarah Connor', 'Bob'), { nil: undefined }),
      }),
      { selector: (a) => a.email.toLowerCase(), maxLength: 4 },
    ),
    allDay: fc.boolean(),
    instant: fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
    zone: fc.constantFrom(...ZONES),
    recurring: fc.boolean(),
    transparency: fc.constantFrom('opaque', 'transparent' as const),
    status: fc.constantFrom('confirmed', 'tentative', 'cancelled' as const),
  })
  .map((r): EventView => {
    const start = new Date(Math.floor(r.instant / 60_000) * 60_000);
    const date = start.toISOString().slice(0, 10);
    const event: CalendarEvent = {
      id: 'e1',
      calendar_id: 'native/c1',
      summary: r.title.join(' '),
      description: r.description.join(' '),
      start: r.allDay ? { date } : { date_time: start.toISOString(), time_zone: r.zone },
      end: r.allDay
        ? { date }
        : { date_time: new Date(start.getTime() + 3_600_000).toISOString(), time_zone: r.zone },
      status: r.status,
      transparency: r.transparency,
      visibility: 'default',
      attendees: r.attendees
        .map((a) => ({ ...a, ...(a.display_name ? {} : { display_name: undefined }) }))
        .map(({ display_name, ...rest }) => (display_name ? { ...rest, display_name } : rest)),
      etag: '1',
      ...(r.recurring ? { recurring_event_id: 'series1' } : {}),
    };
    return toEventView(event, r.zone);
  });

const conditionText = fc.oneof(
  fc.constantFrom(
    ...WORDS.map((w) => `title:"${w.toLowerCase()}"`),
    'description:notes',
    'attendees:sarah',
    'attendees:acme',
  ),
  fc.constantFrom(
    'domain:acme.com',
    'domain:eu.acme.com',
    'domain:beta.org',
    'email:bob@acme.com',
    'email:zed@acme.com',
  ),
  fc.constantFrom('response:accepted', 'response:declined', 'response:tentative', 'response:needsAction'),
  fc.constantFrom('status:confirmed', 'status:tentative', 'status:cancelled'),
  fc.constantFrom(
    'recurring:yes',
    'recurring:no',
    'is-all-day:yes',
    'is-all-day:no',
    'has-attendees:yes',
    'has-attendees:no',
  ),
  fc.constantFrom(
    'transparency:opaque',
    'transparency:transparent',
    'calendar:work',
    'calendar:home',
    'text:acme',
    'text:sync',
  ),
  fc.constantFrom('mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun').map((d) => `day-of-week:${d}`),
  fc
    .tuple(
      fc.constantFrom('>', '>=', '<', '<=', ''),
      fc.integer({ min: 0, max: 23 }),
      fc.constantFrom('00', '30'),
    )
    .map(([op, h, m]) => `time-of-day:${op}${String(h).padStart(2, '0')}:${m}`),
);

const query = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small' },
    conditionText,
    tie('q').map((q) => `-(${q})`),
    fc.array(tie('q'), { minLength: 2, maxLength: 3 }).map((qs) => qs.map((q) => `(${q})`).join(' ')),
    fc.array(tie('q'), { minLength: 2, maxLength: 3 }).map((qs) => qs.map((q) => `(${q})`).join(' OR ')),
  ),
})).q;

/**
 * An independent evaluator over the raw event view: no precomputed facts, weekday and time read
 * with Intl from the UTC instant, strings lowered at each comparison.
 */
function bruteForce(node: QueryNode, event: EventView): boolean {
  if (node.kind === 'not') return !bruteForce(node.item, event);
  if (node.kind === 'and') return node.items.every((n) => bruteForce(n, event));
  if (node.kind === 'or') return node.items.some((n) => bruteForce(n, event));
  const has = (text: string | undefined) => (text ?? '').toLowerCase().includes(node.value.toLowerCase());
  const others = event.attendees.filter((a) => a.email.toLowerCase() !== OWNER);
  const mine = event.attendees.find((a) => a.email.toLowerCase() === OWNER);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: event.time_zone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(event.start_utc));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  switch (node.property) {
    case 'title':
      return has(event.summary);
    case 'description':
      return has(event.description);
    case 'attendees':
      return others.some((a) => has(a.email) || has(a.display_name));
    case 'calendar':
      return has(CALENDAR);
    case 'text':
      return (
        has(event.summary) ||
        has(event.description) ||
        others.some((a) => has(a.email) || has(a.display_name))
      );
    case 'domain':
      return others.some((a) => a.email.toLowerCase().split('@')[1] === node.value);
    case 'email':
      return others.some((a) => a.email.toLowerCase() === node.value);
    case 'response':
      return (mine?.response_status ?? 'accepted') === node.value;
    case 'status':
      return event.status === node.value;
    case 'transparency':
      return event.transparency === node.value;
    case 'recurring':
      return (event.recurring_event_id !== undefined) === (node.value === 'yes');
    case 'is-all-day':
      return event.all_day === (node.value === 'yes');
    case 'has-attendees':
      return others.length > 0 === (node.value === 'yes');
    case 'day-of-week': {
      const weekday = event.all_day
        ? new Date(`${event.start_local}T12:00:00Z`).toUTCString().slice(0, 3)
        : part('weekday');
      return weekday.toLowerCase() === node.value;
    }
    case 'time-of-day': {
      if (event.all_day) return false;
      const minutes = Number(part('hour')) * 60 + Number(part('minute'));
      return {
        '>': minutes > node.minutes,
        '>=': minutes >= node.minutes,
        '<': minutes < node.minutes,
        '<=': minutes <= node.minutes,
        '=': minutes === node.minutes,
      }[node.operator];
    }
  }
}

const facts = (event: EventView) => toClassifiable(event, { name: CALENDAR, ownerEmail: OWNER });

describe('matchesQuery', () => {
  it('agrees with a brute-force evaluator on random events and queries', () => {
    fc.assert(
      fc.property(query, rawEvent, (text, event) => {
        const tree = parseQuery(text);
        expect(matchesQuery(tree, facts(event))).toBe(bruteForce(tree, event));
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('matches domain exactly: acme.com does not match eu.acme.com', () => {
    const event = fc.sample(rawEvent, { seed: 1, numRuns: 1 })[0]!;
    const withEu = {
      ...event,
      attendees: [{ email: 'ann@eu.acme.com', response_status: 'accepted' as const }],
    };

    expect(matchesQuery(parseQuery('domain:acme.com'), facts(withEu))).toBe(false);
    expect(matchesQuery(parseQuery('domain:eu.acme.com'), facts(withEu))).toBe(true);
  });

  it('reads weekday and time of day in the event zone, and never gives an all-day event a time', () => {
    const base = fc.sample(rawEvent, { seed: 2, numRuns: 1 })[0]!;
    // Friday 23:30 in New York is Saturday 04:30 UTC.
    const event = toEventView(
      {
        ...base,
        start: { date_time: '2026-11-28T04:30:00Z', time_zone: 'America/New_York' },
        end: { date_time: '2026-11-28T05:00:00Z', time_zone: 'America/New_York' },
      },
      'UTC',
    );
    const allDay = toEventView(
      { ...base, start: { date: '2026-11-27' }, end: { date: '2026-11-28' } },
      'UTC',
    );

    expect(matchesQuery(parseQuery('day-of-week:fri time-of-day:>=23:00'), facts(event))).toBe(true);
    expect(matchesQuery(parseQuery('time-of-day:>00:00'), facts(allDay))).toBe(false);
    expect(matchesQuery(parseQuery('-time-of-day:>00:00 day-of-week:fri'), facts(allDay))).toBe(true);
  });
});

describe('Classifier', () => {
  const rule = (id: string, q: string, weight = 1, created = '2026-11-01T00:00:00Z') =>
    compileRule({ rule_id: id, project_id: `p-${id}`, query: q, weight, created_at: created });

  it('picks the same winner as evaluating every rule, with the index pruning', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(query, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 9 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(rawEvent, { minLength: 1, maxLength: 5 }),
        (specs, events) => {
          const rules = specs.map(([q, weight, day], i) =>
            rule(`r${i}`, q, weight, `2026-11-0${day + 1}T00:00:00Z`),
          );
          const classifier = new Classifier(rules);
          for (const event of events) {
            const naive = rankMatches(rules, facts(event))[0];
            expect(classifier.classify(facts(event))).toEqual(
              naive
                ? { project_id: naive.project_id, source: 'rule', rule: naive }
                : { project_id: null, source: 'none' },
            );
            expect(classifier.matches(facts(event))).toEqual(rankMatches(rules, facts(event)));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('ranks by pin, then weight, then more conditions, then the newer rule', () => {
    const event = facts(fc.sample(rawEvent, { seed: 3, numRuns: 1 })[0]!);
    const any = '-title:zzzz';
    const light = rule('light', any, 1);
    const heavy = rule('heavy', any, 2);
    const specific = rule('specific', `${any} -title:yyyy`, 1);
    const newer = rule('newer', any, 1, '2026-11-20T00:00:00Z');

    expect([light, heavy, specific, newer].sort(compareRules).map((r) => r.rule_id)).toEqual([
      'heavy',
      'specific',
      'newer',
      'light',
    ]);
    expect(new Classifier([light, heavy]).classify(event)).toMatchObject({
      source: 'rule',
      project_id: 'p-heavy',
    });
    expect(new Classifier([light, heavy]).classify(event, 'pinned')).toEqual({
      project_id: 'pinned',
      source: 'pin',
    });
  });

  it('keeps printed queries stable for saved rules', () => {
    expect(printQuery(rule('x', 'Domain:ACME.com  title:"Q4 review"').tree)).toBe(
      'domain:acme.com title:"Q4 review"',
    );
  });
});
