import type { Principal } from '../access/rights.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import { DomainError } from '../errors.js';
import type { Clock, DocumentStore, RandomSource } from '../ports/index.js';
import { assembleQuery, type StructuredCondition } from './assemble-query.js';
import { compileRule } from './classify.js';
import { vocabularyOf } from './description-vocabulary.js';
import { parseQuery } from './parse-query.js';
import { type Pin, PinStore } from './pin-store.js';
import { printQuery } from './print-query.js';
import { type Project, ProjectStore } from './project-store.js';
import { RuleContext } from './rule-context.js';
import { type EventWindow, readRuleEvents, ruleWindow, toRuleEvent } from './rule-events.js';
import { type Explanation, explainEvent } from './rule-explain.js';
import { type DraftQuery, draftQuery } from './rule-from-description.js';
import { type Preview, previewQuery } from './rule-preview.js';
import { decodeProposal, encodeProposal } from './rule-proposal.js';
import { type Rule, RuleStore } from './rule-store.js';
import { type RuleSuggestion, suggestRules } from './rule-suggestions.js';
import { type RuleWithUsage, rulesWithUsage } from './rule-usage.js';
import type { GroupBy } from './timesheet.js';
import { buildTimesheet, type TimesheetReport } from './timesheet-report.js';

export interface RulesServiceDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
  calendars: CalendarService;
}

/** A window and the calendars to read, as the rules tools take them. */
export interface EventScope {
  start?: string | undefined;
  end?: string | undefined;
  calendar_ids?: readonly string[] | undefined;
}

export const DEFAULT_PREVIEW_LIMIT = 10;
export const MAX_PREVIEW_LIMIT = 500;
const DEFAULT_WEIGHT = 1;

/**
 * Timesheet rules for one principal at a time: projects, rules and pins in the document store;
 * events read through the calendar service (only calendars the principal may read); the pure
 * core (parser, classifier, timesheet) in between. Tools map these methods one to one.
 */
export class RulesService {
  readonly projects: ProjectStore;
  readonly rules: RuleStore;
  readonly pins: PinStore;

  constructor(private readonly deps: RulesServiceDeps) {
    this.projects = new ProjectStore(deps);
    this.rules = new RuleStore(deps);
    this.pins = new PinStore(deps);
  }

  /**
   * Saves a rule from a raw query (stored canonical) or a proposal id from
   * {@link createRuleFromDescription}. INVALID_QUERY / INVALID_PROPERTY / INVALID_VALUE say what to fix.
   */
  async createRule(input: {
    query?: string | undefined;
    proposal_id?: string | undefined;
    project_id?: string | undefined;
    weight?: number | undefined;
    description?: string | undefined;
  }): Promise<Rule> {
    const proposal = input.proposal_id ? decodeProposal(input.proposal_id) : undefined;
    const query = input.query ?? proposal?.query;
    const projectId = input.project_id ?? proposal?.project_id;
    if (!query)
      throw invalidInput('query', 'Pass query (e.g. "domain:acme.com -title:canceled") or proposal_id.');
    if (!projectId)
      throw invalidInput('project_id', 'Pass project_id: one of the ids list_projects returns.');
    await this.requireActiveProject(projectId);
    return this.rules.create({
      query: printQuery(parseQuery(query)),
      project_id: projectId,
      weight: input.weight ?? DEFAULT_WEIGHT,
      description: input.description,
    });
  }

  /** Saves a rule from structured conditions; the assembled query is on the returned rule. */
  async createClassificationRule(input: {
    conditions: readonly StructuredCondition[];
    logic?: 'AND' | 'OR' | undefined;
    project_id: string;
    weight?: number | undefined;
    description?: string | undefined;
  }): Promise<Rule> {
    return this.createRule({ ...input, query: assembleQuery(input.conditions, input.logic ?? 'AND') });
  }

  async updateRule(
    ruleId: string,
    patch: { query?: string; project_id?: string; weight?: number; description?: string | null },
    expectedVersion?: number,
  ): Promise<Rule> {
    if (patch.project_id) await this.requireActiveProject(patch.project_id);
    const query = patch.query === undefined ? undefined : printQuery(parseQuery(patch.query));
    return this.rules.update(ruleId, { ...patch, ...(query ? { query } : {}) }, expectedVersion);
  }

  async deleteRule(ruleId: string, expectedVersion?: number): Promise<{ rule_id: string; deleted: true }> {
    await this.rules.delete(ruleId, expectedVersion);
    return { rule_id: ruleId, deleted: true };
  }

  /** Every rule with the events it matched and won in the last 30 days, and warnings. */
  async listRules(principal: Principal): Promise<RuleWithUsage[]> {
    const { context, events } = await this.load(principal, ruleWindow(this.deps.clock.now(), {}));
    return rulesWithUsage(context, events);
  }

  /**
   * Tests an unsaved query over a window (default the last 30 days) and calendars (default every
   * readable one). With `project_id`, also what saving it would move between projects.
   */
  async previewRule(
    principal: Principal,
    input: EventScope & { query: string; project_id?: string; weight?: number; limit?: number },
  ): Promise<Preview & { window: { start: string; end: string } }> {
    const tree = parseQuery(input.query);
    const limit = input.limit ?? DEFAULT_PREVIEW_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PREVIEW_LIMIT)
      throw invalidInput('limit', `limit must be a whole number from 1 to ${MAX_PREVIEW_LIMIT}, e.g. 10.`);
    if (input.project_id) await this.projects.require(input.project_id);
    const window = ruleWindow(this.deps.clock.now(), input);
    const { context, events } = await this.load(principal, window, input.calendar_ids);
    const candidate = input.project_id
      ? compileRule({
          rule_id: '(preview)',
          project_id: input.project_id,
          query: input.query,
          weight: input.weight ?? DEFAULT_WEIGHT,
          created_at: this.deps.clock.now().toISOString(),
        })
      : undefined;
    return { ...previewQuery(tree, events, { limit, context, candidate }), window: windowText(window) };
  }

  /** Pins an event, or its whole series, to a project by hand. Pins beat rules. */
  async classifyEvent(
    principal: Principal,
    input: { calendar_id: string; event_id: string; project_id: string; scope?: 'event' | 'series' },
  ): Promise<Pin> {
    await this.requireActiveProject(input.project_id);
    const event = await this.deps.calendars.getEvent(principal, input.calendar_id, input.event_id);
    const scope = input.scope ?? 'event';
    const seriesId = event.recurring_event_id ?? (event.recurrence?.length ? event.id : undefined);
    if (scope === 'series' && !seriesId)
      throw invalidInput('scope', `Event "${input.event_id}" is not part of a series: use scope "event".`);
    return this.pins.pin({
      calendar_id: input.calendar_id,
      scope,
      target_id: scope === 'series' ? seriesId! : event.id,
      project_id: input.project_id,
    });
  }

  /** Why one event is classified as it is: the pin or winning rule, and every other match. */
  async explainClassification(
    principal: Principal,
    input: { calendar_id: string; event_id: string },
  ): Promise<Explanation> {
    const record = await this.deps.calendars.calendarFor(principal, input.calendar_id, 'read');
    const view = await this.deps.calendars.getEvent(principal, input.calendar_id, input.event_id);
    const context = await RuleContext.load(this, [record.calendar_id]);
    return explainEvent(context, toRuleEvent(view, record));
  }

  async getTimesheet(
    principal: Principal,
    input: EventScope & {
      start: string;
      end: string;
      group_by?: GroupBy;
      project_ids?: readonly string[];
      include_all_day?: boolean;
    },
  ): Promise<TimesheetReport> {
    const window = ruleWindow(this.deps.clock.now(), input);
    const { context, events } = await this.load(principal, window, input.calendar_ids);
    return buildTimesheet(context, events, {
      window: windowText(window),
      windowMs: window,
      groupBy: input.group_by ?? 'project',
      zone: this.deps.calendars.zone,
      includeAllDay: input.include_all_day ?? false,
      projectIds: input.project_ids,
    });
  }

  /** Rules worth writing, from the last 30 days (or the window given). */
  async getRuleSuggestions(principal: Principal, input: EventScope = {}): Promise<RuleSuggestion[]> {
    const { context, events } = await this.load(
      principal,
      ruleWindow(this.deps.clock.now(), input),
      input.calendar_ids,
    );
    return suggestRules(context, events);
  }

  /**
   * Drafts a query from a plain-language description with the organization's own vocabulary
   * (the last 90 days of the principal's calendars) and previews it. Never saves: the agent
   * confirms by passing `proposal_id` (or the query) to create_rule.
   */
  async createRuleFromDescription(
    principal: Principal,
    input: { description: string; project_id?: string },
  ): Promise<DraftQuery & { proposal_id?: string; preview?: Preview; saved: false }> {
    if (input.description.trim() === '')
      throw invalidInput(
        'description',
        'Describe the events, e.g. "meetings with people from Acme on Fridays".',
      );
    if (input.project_id) await this.projects.require(input.project_id);
    const now = this.deps.clock.now();
    const { context, events, calendars } = await this.load(principal, ruleWindow(now, {}, 90));
    const draft = draftQuery(input.description, vocabularyOf(events, calendars));
    if (!draft.query) return { ...draft, saved: false };
    const recent = events.filter((e) => e.startMs >= now.getTime() - 30 * 86_400_000);
    const candidate = input.project_id
      ? compileRule({
          rule_id: '(proposal)',
          project_id: input.project_id,
          query: draft.query,
          weight: DEFAULT_WEIGHT,
          created_at: now.toISOString(),
        })
      : undefined;
    return {
      ...draft,
      proposal_id: encodeProposal({
        query: draft.query,
        ...(input.project_id ? { project_id: input.project_id } : {}),
      }),
      preview: previewQuery(parseQuery(draft.query), recent, { limit: 5, context, candidate }),
      saved: false,
    };
  }

  private async load(principal: Principal, window: EventWindow, calendarIds?: readonly string[]) {
    const read = await readRuleEvents(this.deps.calendars, principal, window, calendarIds);
    const context = await RuleContext.load(
      this,
      read.calendars.map((c) => c.calendar_id),
    );
    return { context, events: read.events, calendars: read.calendars.map((c) => c.name) };
  }

  private async requireActiveProject(projectId: string): Promise<Project> {
    const project = await this.projects.require(projectId);
    if (project.archived)
      throw invalidInput(
        'project_id',
        `Project "${project.name}" (${projectId}) is archived: unarchive it with update_project, or pick another.`,
      );
    return project;
  }
}

function windowText(window: EventWindow): { start: string; end: string } {
  return { start: new Date(window.from).toISOString(), end: new Date(window.to).toISOString() };
}

function invalidInput(field: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', message, { field });
}
