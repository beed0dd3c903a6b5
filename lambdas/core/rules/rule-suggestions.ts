import { quoteValue } from './assemble-query.js';
import { compileRule } from './classify.js';
import { ruleEventCounts } from './counted-event.js';
import { matchesQuery } from './evaluate-query.js';
import { parseQuery } from './parse-query.js';
import { printQuery } from './print-query.js';
import type { QueryNode } from './query-ast.js';
import type { RuleContext } from './rule-context.js';
import type { RuleEvent } from './rule-events.js';
import { previewQuery } from './rule-preview.js';
import { titleTerms } from './title-terms.js';

export interface RuleSuggestion {
  kind: 'domain' | 'series' | 'title_phrase' | 'correction';
  query: string;
  reason: string;
  /** Unclassified events (and their minutes) the query would cover. */
  events: number;
  minutes: number;
  /**
   * On events already classified that the query matches: the share in their most common
   * project (1 = it agrees with the current classification everywhere). null: none matched.
   */
  precision: { classified_events: number; top_project_id: string; share: number } | null;
  /** Corrections: the project the pins chose, the weight that beats the contradicted rule, an exception for it. */
  project_id?: string;
  weight?: number;
  exception?: { rule_id: string; query: string };
  /** Other suggested queries that cover exactly the same unclassified events: merged into this one. */
  alternatives?: string[];
}

/** Providers whose addresses say nothing about the organization a person works for. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'ymail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  'zoho.com',
  'fastmail.com',
]);

const PER_KIND = 5;
const MIN_EVENTS = 2;
const minutesOf = (e: RuleEvent) => (e.endMs - e.startMs) / 60_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** The organization's own domains: those of the calendar owners. */
export function orgDomains(events: readonly RuleEvent[]): Set<string> {
  const domains = new Set<string>();
  for (const event of events) {
    const owner = event.view.attendees.find((a) => a.self)?.email ?? event.calendar.owner_email;
    if (owner) domains.add(domainOf(owner));
  }
  return domains;
}

/**
 * Rules worth writing, from the window's events: attendee domains of unclassified time (not the
 * organization's own, not free mail), recurring series, distinctive title phrases (TF-IDF: common
 * in unclassified titles, rare overall), and corrections (pins that contradict a rule).
 */
export function suggestRules(context: RuleContext, events: readonly RuleEvent[]): RuleSuggestion[] {
  const counted = events.filter((e) => ruleEventCounts(e, false));
  const classified = counted.map((event) => ({ event, project: context.classify(event).project_id }));
  const coverage = new Map<string, string>();
  const unclassified = classified.filter((c) => c.project === null).map((c) => c.event);
  const measure = (query: string) => {
    const tree = parseQuery(query);
    const covered = unclassified.filter((e) => matchesQuery(tree, e.facts));
    coverage.set(printQuery(tree), coveredKey(covered));
    const byProject = new Map<string, number>();
    for (const { event, project } of classified)
      if (project !== null && matchesQuery(tree, event.facts))
        byProject.set(project, (byProject.get(project) ?? 0) + 1);
    const total = [...byProject.values()].reduce((s, n) => s + n, 0);
    const top = [...byProject.entries()].sort((a, b) => b[1] - a[1])[0];
    return {
      query: printQuery(tree),
      events: covered.length,
      minutes: round2(covered.reduce((s, e) => s + minutesOf(e), 0)),
      precision: top
        ? { classified_events: total, top_project_id: top[0], share: round2(top[1] / total) }
        : null,
    };
  };
  const suggestions: RuleSuggestion[] = [
    ...domainSuggestions(unclassified, orgDomains(events)).map(([q, reason]) => ({
      kind: 'domain' as const,
      reason,
      ...measure(q),
    })),
    ...seriesSuggestions(unclassified).map(([q, reason]) => ({
      kind: 'series' as const,
      reason,
      ...measure(q),
    })),
    ...phraseSuggestions(unclassified, counted).map(([q, reason]) => ({
      kind: 'title_phrase' as const,
      reason,
      ...measure(q),
    })),
  ];
  const seen = new Set<string>();
  const unique = suggestions.filter((s) => s.events >= 1 && !seen.has(s.query) && seen.add(s.query));
  return [...mergeSameCoverage(unique, (s) => coverage.get(s.query)!), ...corrections(context, counted)];
}

const coveredKey = (events: readonly RuleEvent[]) =>
  events
    .map((e) => `${e.calendar.calendar_id} ${e.view.id}`)
    .sort()
    .join('\n');

// A client's domain keeps classifying after a series ends; a series beats a loose title word.
const KIND_ORDER = ['domain', 'series', 'title_phrase'];

/**
 * One suggestion per set of covered events (issue 22: `title:team`, `title:standup`,
 * `title:"team standup"` and the series rule all covered the same 17 events). The one kept
 * touches the fewest already-classified events, then is a domain, a series, a phrase, in that
 * order, then the longest query; the others are named as its alternatives.
 */
function mergeSameCoverage(
  suggestions: readonly RuleSuggestion[],
  keyOf: (s: RuleSuggestion) => string,
): RuleSuggestion[] {
  const groups = new Map<string, RuleSuggestion[]>();
  for (const suggestion of suggestions) {
    const key = keyOf(suggestion);
    groups.set(key, [...(groups.get(key) ?? []), suggestion]);
  }
  const collateral = (s: RuleSuggestion) => s.precision?.classified_events ?? 0;
  const kept = [...groups.values()].map((group) => {
    const [best, ...others] = [...group].sort(
      (a, b) =>
        collateral(a) - collateral(b) ||
        KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
        b.query.length - a.query.length,
    );
    return others.length === 0 ? best! : { ...best!, alternatives: others.map((o) => o.query) };
  });
  // Keep the original order (domains, series, phrases) among the suggestions kept.
  return suggestions.flatMap((s) => kept.filter((k) => k.query === s.query));
}

function topBy<K>(counts: Map<K, number>, min: number): K[] {
  return [...counts.entries()]
    .filter(([, n]) => n >= min)
    .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
    .slice(0, PER_KIND)
    .map(([key]) => key);
}

function domainSuggestions(unclassified: readonly RuleEvent[], own: ReadonlySet<string>): [string, string][] {
  const counts = new Map<string, number>();
  for (const event of unclassified) {
    const domains = new Set(event.facts.attendees.map((a) => domainOf(a.email)));
    for (const domain of domains)
      if (!own.has(domain) && !FREE_MAIL_DOMAINS.has(domain))
        counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  return topBy(counts, MIN_EVENTS).map((d) => [
    `domain:${d}`,
    `${counts.get(d)} unclassified events with attendees from ${d}`,
  ]);
}

function seriesSuggestions(unclassified: readonly RuleEvent[]): [string, string][] {
  const counts = new Map<string, number>();
  const titles = new Map<string, string>();
  for (const event of unclassified) {
    const series = event.view.recurring_event_id;
    if (!series || event.view.summary.trim() === '') continue;
    counts.set(series, (counts.get(series) ?? 0) + 1);
    titles.set(series, event.view.summary);
  }
  return topBy(counts, MIN_EVENTS).map((series) => [
    `title:${quoteValue(titles.get(series)!)} recurring:yes`,
    `recurring series "${titles.get(series)}": ${counts.get(series)} unclassified occurrences`,
  ]);
}

function phraseSuggestions(
  unclassified: readonly RuleEvent[],
  all: readonly RuleEvent[],
): [string, string][] {
  const documentFrequency = new Map<string, number>();
  for (const event of all)
    for (const term of new Set(titleTerms(event.view.summary)))
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const termFrequency = new Map<string, number>();
  for (const event of unclassified)
    for (const term of new Set(titleTerms(event.view.summary)))
      termFrequency.set(term, (termFrequency.get(term) ?? 0) + 1);
  const scores = new Map<string, number>();
  for (const [term, tf] of termFrequency) {
    if (tf < MIN_EVENTS) continue;
    scores.set(term, tf * Math.log((1 + all.length) / (1 + documentFrequency.get(term)!)) + tf * 1e-6);
  }
  return topBy(scores, 0).map((term) => [
    `title:${quoteValue(term)}`,
    `"${term}" appears in ${termFrequency.get(term)} unclassified titles and rarely elsewhere`,
  ]);
}

/**
 * Pinned events whose rules say otherwise: a rule for the pinned title, and an exception for the
 * contradicted rule. Its `events` and `minutes` are what saving it would move, measured as
 * preview_rule measures it (pins never move), so a title an unpinned event shares is said, not
 * hidden (issue 22 S4: "covers 1 event" while saving it moved the other workshop too).
 */
function corrections(context: RuleContext, events: readonly RuleEvent[]): RuleSuggestion[] {
  const groups = new Map<
    string,
    { rule_id: string; project: string; titles: Set<string>; events: RuleEvent[] }
  >();
  for (const event of events) {
    const pin = context.pinOf(event);
    if (!pin) continue;
    const byRule = context.classifierFor(event.calendar.calendar_id).classify(event.facts);
    if (byRule.source !== 'rule' || byRule.project_id === pin.project_id) continue;
    const key = `${byRule.rule.rule_id} ${pin.project_id}`;
    const group = groups.get(key) ?? {
      rule_id: byRule.rule.rule_id,
      project: pin.project_id,
      titles: new Set<string>(),
      events: [],
    };
    group.titles.add(event.view.summary);
    group.events.push(event);
    groups.set(key, group);
  }
  return [...groups.values()].flatMap((group) => {
    const rule = context.compiled.get(group.rule_id)!;
    const titles = [...group.titles].filter((t) => t.trim() !== '');
    if (titles.length === 0) return [];
    const titleQuery = titles.map((t) => `title:${quoteValue(t)}`).join(' OR ');
    const savedQuery = context.rules.find((r) => r.rule_id === rule.rule_id)!.query;
    const pinnedTree = parseQuery(titleQuery);
    const weight = rule.weight + 1;
    const { moved, minutes } = wouldMove(context, events, pinnedTree, group.project, weight);
    const moves =
      moved === 0
        ? 'saving it moves no event that is not pinned'
        : `saving it also moves ${moved} event(s) not pinned (${minutes} minutes) to ${group.project}: check them with preview_rule`;
    return [
      {
        kind: 'correction' as const,
        query: printQuery(pinnedTree),
        reason: `${group.events.length} event(s) pinned to ${group.project} by hand, though rule ${rule.rule_id} (${savedQuery}) classifies them into ${rule.project_id}; ${moves}`,
        events: moved,
        minutes,
        precision: null,
        project_id: group.project,
        weight,
        exception: {
          rule_id: rule.rule_id,
          query: printQuery(parseQuery(`(${savedQuery}) -(${titleQuery})`)),
        },
      },
    ];
  });
}

/** What saving `tree` into `projectId` with `weight` would move, exactly as preview_rule counts it. */
function wouldMove(
  context: RuleContext,
  events: readonly RuleEvent[],
  tree: QueryNode,
  projectId: string,
  weight: number,
): { moved: number; minutes: number } {
  const candidate = compileRule({
    rule_id: '(suggestion)',
    project_id: projectId,
    query: printQuery(tree),
    weight,
    // Saved now, it would be the newest rule: newer than any stored timestamp.
    created_at: '9999-12-31T23:59:59.999Z',
  });
  const { change } = previewQuery(tree, events, { limit: 1, context, candidate });
  return {
    moved: change?.events_moved ?? 0,
    minutes: round2((change?.moves ?? []).reduce((sum, move) => sum + move.minutes, 0)),
  };
}
