/**
 * Classification at scale: 100,000 events against 1,000 rules, the compiled classifier (a rule
 * index on domains, addresses and title trigrams picks the candidate rules) versus evaluating
 * every rule on every event; both must give the same winner for every event. Target: ≥ 20×.
 *
 * The rule mix is what an organization writes: mostly client domains and title words, a few
 * addresses and OR groups, and 2% that no index can prune (weekends, evenings, negations), which
 * are evaluated for every event in both engines.
 */
import type { ClassifiableEvent } from '../lambdas/core/rules/classifiable-event.js';
import { Classifier, type CompiledRule, compareRules, compileRule } from '../lambdas/core/rules/classify.js';
import { matchesQuery } from '../lambdas/core/rules/evaluate-query.js';
import { WEEKDAYS } from '../lambdas/core/rules/rule-properties.js';
import { compare, reportFigure, reportRatio } from './harness.js';

const EVENTS = 100_000;
const RULES = 1_000;
const DOMAINS = Array.from({ length: 1500 }, (_, i) => `client${i}.com`);
/**
 * Title vocabulary: 20 everyday meeting words and 280 made-up ones (client code names, product
 * names), so that a title rule is as selective as in an organization with 1,000 rules; with only
 * 20 words every title rule would match one event in twenty.
 */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const WORDS = [
  ...['standup', 'review', 'planning', 'retro', 'kickoff', 'demo', 'sync', 'interview', 'budget', 'roadmap'],
  ...[
    'design',
    'launch',
    'hiring',
    'offsite',
    'training',
    'support',
    'audit',
    'migration',
    'onboarding',
    'contract',
  ],
  // Made-up names with varied beginnings ("hqa12", "ozk57", …), the same in every run.
  ...madeUpNames(280),
];
const PROJECTS = Array.from({ length: 60 }, (_, i) => `prj_${i}`);

function madeUpNames(count: number): string[] {
  const next = random(7);
  const letter = () => LETTERS[Math.floor(next() * LETTERS.length)]!;
  return Array.from({ length: count }, (_, i) => `${letter()}${letter()}${letter()}${i}`);
}

/** A small seeded generator (mulberry32), so every run classifies the same data. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function events(next: () => number): ClassifiableEvent[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  return Array.from({ length: EVENTS }, () => {
    const guests = Math.floor(next() * 4);
    const allDay = next() < 0.03;
    return {
      title: `${pick(WORDS)} ${pick(WORDS)} ${Math.floor(next() * 100)}`,
      description: '',
      attendees: Array.from({ length: guests }, () => ({
        email: `p${Math.floor(next() * 50)}@${pick(DOMAINS)}`,
      })),
      response: next() < 0.1 ? 'declined' : 'accepted',
      status: 'confirmed',
      recurring: next() < 0.4,
      transparency: next() < 0.05 ? 'transparent' : 'opaque',
      allDay,
      weekday: pick(WEEKDAYS),
      startMinutes: allDay ? undefined : Math.floor(next() * 96) * 15,
      calendarName: 'work',
    };
  });
}

function rules(next: () => number): CompiledRule[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  return Array.from({ length: RULES }, (_, i) => {
    const kind = next();
    const query =
      kind < 0.5
        ? `domain:${pick(DOMAINS)}${next() < 0.3 ? ` -title:${pick(WORDS)}` : ''}`
        : kind < 0.75
          ? `title:${pick(WORDS)}${next() < 0.5 ? ` title:${pick(WORDS)}` : ''}`
          : kind < 0.85
            ? `email:p${Math.floor(next() * 50)}@${pick(DOMAINS)}`
            : kind < 0.98
              ? `domain:${pick(DOMAINS)} OR domain:${pick(DOMAINS)} OR title:"${pick(WORDS)} ${pick(WORDS)}"`
              : pick([
                  'day-of-week:sat OR day-of-week:sun',
                  'time-of-day:>=18:00 -recurring:yes',
                  '-has-attendees:yes',
                ]);
    return compileRule({
      rule_id: `r${String(i).padStart(4, '0')}`,
      project_id: pick(PROJECTS),
      query,
      weight: 1 + Math.floor(next() * 3),
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    });
  });
}

/** The baseline: every rule evaluated on every event, the best kept by the same conflict order. */
function classifyEveryRule(all: readonly CompiledRule[], event: ClassifiableEvent): CompiledRule | undefined {
  let winner: CompiledRule | undefined;
  for (const rule of all)
    if (matchesQuery(rule.tree, event) && (!winner || compareRules(rule, winner) < 0)) winner = rule;
  return winner;
}

export async function run(): Promise<void> {
  const next = random(48);
  const sample = events(next);
  const ruleSet = rules(next);
  const classifier = new Classifier(ruleSet);

  const indexed = sample.map((e) => {
    const c = classifier.classify(e);
    return c.source === 'rule' ? c.rule.rule_id : null;
  });
  const brute = sample.map((e) => classifyEveryRule(ruleSet, e)?.rule_id ?? null);
  const differing = indexed.filter((id, i) => id !== brute[i]).length;
  if (differing > 0) throw new Error(`the index and the brute force disagree on ${differing} events`);
  reportFigure(
    'classify: same winners',
    `${EVENTS} events, ${RULES} rules, ${indexed.filter((id) => id !== null).length} classified, 0 differences`,
  );

  const result = await compare(
    { name: 'indexed', fn: () => sample.map((e) => classifier.classify(e)) },
    { name: 'every rule', fn: () => sample.map((e) => classifyEveryRule(ruleSet, e)) },
    { rounds: 2, runs: 2, warmup: 0 },
  );
  reportRatio(`classify ${EVENTS} events × ${RULES} rules`, result, { kind: 'speedup', value: 20 });
}
