import { type Classification, Classifier, type CompiledRule, compileRule } from './classify.js';
import type { CalendarPins, Pin, PinStore } from './pin-store.js';
import type { Project, ProjectStore } from './project-store.js';
import type { RuleEvent } from './rule-events.js';
import type { Rule, RuleStore } from './rule-store.js';

/** A classification with the pin that decided it, when a pin did. */
export type EventClassification = Classification & { readonly pin?: Pin };

/**
 * Everything classification needs, loaded once per call: the rules compiled into an index, the
 * pins of the calendars in play and the projects (for rounding and billing).
 */
export class RuleContext {
  readonly classifier: Classifier;
  readonly compiled: ReadonlyMap<string, CompiledRule>;

  private constructor(
    readonly rules: readonly Rule[],
    readonly projects: ReadonlyMap<string, Project>,
    private readonly pins: ReadonlyMap<string, CalendarPins>,
  ) {
    const compiled = rules.map(compileRule);
    this.classifier = new Classifier(compiled);
    this.compiled = new Map(compiled.map((rule) => [rule.rule_id, rule]));
  }

  static async load(
    stores: { rules: RuleStore; projects: ProjectStore; pins: PinStore },
    calendarIds: readonly string[],
  ): Promise<RuleContext> {
    const [rules, projects, pins] = await Promise.all([
      stores.rules.list(),
      stores.projects.list({ includeArchived: true }),
      Promise.all(calendarIds.map(async (id) => [id, await stores.pins.ofCalendar(id)] as const)),
    ]);
    return new RuleContext(rules, new Map(projects.map((p) => [p.project_id, p])), new Map(pins));
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
    return this.classifier.classify(event.facts);
  }
}
