import { type Classification, Classifier, type CompiledRule, compileRule } from './classify.js';
import type { CalendarPins, Pin, PinStore } from './pin-store.js';
import type { Project, ProjectStore } from './project-store.js';
import type { RuleEvent } from './rule-events.js';
import type { RuleReach } from './rule-reach.js';
import type { AuthoredRule, RuleStore } from './rule-store.js';

/** A classification with the pin that decided it, when a pin did. */
export type EventClassification = Classification & { readonly pin?: Pin };

/**
 * Everything classification needs, loaded once per call: the rules compiled into an index, the
 * pins of the calendars in play and the projects (for rounding and billing). A rule classifies
 * only the events of calendars its author may read (rule-reach.ts): each calendar has its own
 * index of the rules that reach it.
 */
export class RuleContext {
  /** Every rule, by id, whichever calendars it reaches (explanations and usage name them). */
  readonly compiled: ReadonlyMap<string, CompiledRule>;
  private readonly byCalendar = new Map<string, Classifier>();

  private constructor(
    readonly rules: readonly AuthoredRule[],
    readonly projects: ReadonlyMap<string, Project>,
    private readonly pins: ReadonlyMap<string, CalendarPins>,
    private readonly reach: RuleReach,
  ) {
    this.compiled = new Map(rules.map((rule) => [rule.rule_id, compileRule(rule)]));
  }

  static async load(
    sources: {
      rules: RuleStore;
      projects: ProjectStore;
      pins: PinStore;
      reachOf: (authors: Iterable<string | undefined>) => Promise<RuleReach>;
    },
    calendarIds: readonly string[],
  ): Promise<RuleContext> {
    const [rules, projects, pins] = await Promise.all([
      sources.rules.listAuthored(),
      sources.projects.list({ includeArchived: true }),
      Promise.all(calendarIds.map(async (id) => [id, await sources.pins.ofCalendar(id)] as const)),
    ]);
    const reach = await sources.reachOf(rules.map((rule) => rule.author));
    return new RuleContext(rules, new Map(projects.map((p) => [p.project_id, p])), new Map(pins), reach);
  }

  /** The rules that classify `calendarId`'s events, indexed (built once per calendar). */
  classifierFor(calendarId: string): Classifier {
    let classifier = this.byCalendar.get(calendarId);
    if (!classifier) {
      const reaching = this.rules.filter((rule) => this.reach(rule.author, calendarId));
      classifier = new Classifier(reaching.map((rule) => this.compiled.get(rule.rule_id)!));
      this.byCalendar.set(calendarId, classifier);
    }
    return classifier;
  }

  pinOf(event: RuleEvent): Pin | undefined {
    return this.pins.get(event.calendar.calendar_id)?.pinOf(event.view);
  }

  /** Every pin of the loaded calendars. */
  allPins(): Pin[] {
    return [...this.pins.values()].flatMap((pins) => [...pins.all()]);
  }

  classify(event: RuleEvent): EventClassification {
    const pin = this.pinOf(event);
    if (pin) return { project_id: pin.project_id, source: 'pin', pin };
    return this.classifierFor(event.calendar.calendar_id).classify(event.facts);
  }
}
