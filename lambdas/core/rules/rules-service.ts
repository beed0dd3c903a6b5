import type { AccessStore } from '../access/access-store.js';
import type { Principal } from '../access/rights.js';
import type { CalendarService } from '../calendar/calendar-service.js';
import type { CallWork } from '../call-work.js';
import { DomainError } from '../errors.js';
import { once } from '../once.js';
import type { Clock, DocumentStore, RandomSource } from '../ports/index.js';
import type { ShadowStore } from '../shadow/shadow-store.js';
import type { StructuredCondition } from './assemble-query.js';
import { type Pin, PinStore } from './pin-store.js';
import { ProjectAccess } from './project-access.js';
import { type Project, type ProjectFields, ProjectStore } from './project-store.js';
import type { EventWindow } from './rule-events.js';
import type { Explanation } from './rule-explain.js';
import type { DraftQuery } from './rule-from-description.js';
import type { Preview } from './rule-preview.js';
import { authorOf, ruleReachOf } from './rule-reach.js';
import { type Rule, RuleStore, ruleNotFound } from './rule-store.js';
import type { RuleSuggestion } from './rule-suggestions.js';
import type { RuleWithUsage } from './rule-usage.js';
import type { GroupBy } from './timesheet.js';
import type { TimesheetReport } from './timesheet-report.js';

/**
 * The rules engine (parser, classifier, previews, timesheets, event reads; rules-engine.ts),
 * imported by the first method that needs it: list_projects and the project writes need none of it.
 */
const engine = once(() => import('./rules-engine.js'));

/**
 * The content firewall's rules, imported by the first project write: a project's name and client
 * are read by every agent that lists projects, another principal's too, so they are checked as a
 * calendar's name is. A first list_projects loads none of it.
 */
const projectText = once(() => import('../firewall/check-project-content.js'));

export interface RulesServiceDeps {
  store: DocumentStore;
  clock: Clock;
  random: RandomSource;
  /**
   * The calendars, loaded by the first method that reads an event: list_projects and the project
   * and rule writes need none.
   */
  calendars: () => Promise<CalendarService>;
  /** Grants on projects (and calendars): every method checks the principal's right first. */
  access: AccessStore;
}

/** A project as one principal sees it: with the right it holds on it. */
export type ProjectWithAccess = Project & { access: 'read' | 'write' };

/** A window and the calendars to read, as the rules tools take them. */
export interface EventScope {
  start?: string | undefined;
  end?: string | undefined;
  calendar_ids?: readonly string[] | undefined;
}

/**
 * The most rules one key keeps saved, and the most projects it may hold write on and still create
 * another. Every rules call reads every rule and project (classification is one truth), and any
 * key may create projects and rules in them: without a bound, one key could make every rules call
 * of everyone slower at the request rate. The local owner is not bounded. Concurrent creates may
 * pass a bound by the few that raced.
 */
export const MAX_RULES_PER_KEY = 500;
export const MAX_PROJECTS_PER_KEY = 100;

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
  readonly access: ProjectAccess;
  /** Connected calendars' events, as the sync last stored them (see readRuleEvents). */
  private shadow: ShadowStore | undefined;

  constructor(private readonly deps: RulesServiceDeps) {
    this.projects = new ProjectStore(deps);
    this.rules = new RuleStore(deps);
    this.pins = new PinStore(deps);
    this.access = new ProjectAccess(deps.access);
  }

  /** The projects the principal may read (archived ones only when asked), each with its right. */
  async listProjects(
    principal: Principal,
    options: { includeArchived?: boolean } = {},
  ): Promise<ProjectWithAccess[]> {
    const [projects, rights] = await Promise.all([
      this.projects.list(options),
      this.access.rightsOf(principal),
    ]);
    return projects.flatMap((project) => {
      const right = rights.rightOn(project.project_id);
      return right ? [{ ...project, access: right }] : [];
    });
  }

  /**
   * Creates a project, granted (write) to the creating key only. Its name and client pass the
   * content firewall first (CONTENT_REJECTED): any principal may create one, and the owner's
   * agent and every key granted it later read them.
   */
  async createProject(principal: Principal, fields: ProjectFields & { name: string }): Promise<Project> {
    if (principal.kind === 'api-key') {
      const held = [...(await this.deps.access.rightsOn(principal.keyId, 'project')).values()];
      if (held.filter((right) => right === 'write').length >= MAX_PROJECTS_PER_KEY)
        throw new DomainError(
          'QUOTA_EXCEEDED',
          `This key may write ${MAX_PROJECTS_PER_KEY} projects, the most one key may create more beside: archive or reuse one (list_projects), or ask the owner to create it.`,
          { limit: MAX_PROJECTS_PER_KEY },
        );
    }
    const { checkProjectContent } = await projectText();
    const project = await this.projects.create(checkProjectContent(fields));
    // After the record: a grant on an id nobody can guess gives nothing until then, and a failed
    // grant leaves a project only the owner sees (the owner can grant it), never one anyone sees.
    await this.access.grantToCreator(principal, project.project_id);
    return project;
  }

  /**
   * Changes a project (write needed); with `expectedVersion`, STALE_WRITE if it changed since. A new
   * name or client passes the content firewall (CONTENT_REJECTED), read together with the stored
   * text it leaves in place, as create checks it.
   */
  async updateProject(
    principal: Principal,
    projectId: string,
    patch: Parameters<ProjectStore['update']>[1],
    expectedVersion?: number,
  ): Promise<Project> {
    await this.access.require(principal, projectId, 'write');
    if (typeof patch.name === 'string' || typeof patch.client === 'string') {
      const [{ checkProjectContent }, stored] = await Promise.all([
        projectText(),
        this.projects.require(projectId),
      ]);
      patch = checkProjectContent(patch, stored);
    }
    return this.projects.update(projectId, patch, expectedVersion);
  }

  /**
   * Saves a rule from a raw query (stored canonical) or a proposal id from
   * {@link createRuleFromDescription}. INVALID_QUERY / INVALID_PROPERTY / INVALID_VALUE say what to fix.
   */
  async createRule(
    principal: Principal,
    input: {
      query?: string | undefined;
      proposal_id?: string | undefined;
      project_id?: string | undefined;
      weight?: number | undefined;
      description?: string | undefined;
    },
  ): Promise<Rule> {
    const { decodeProposal, parseQuery, printQuery } = await engine();
    const proposal = input.proposal_id ? decodeProposal(input.proposal_id) : undefined;
    const query = input.query ?? proposal?.query;
    const projectId = input.project_id ?? proposal?.project_id;
    if (!query)
      throw invalidInput('query', 'Pass query (e.g. "domain:acme.com -title:canceled") or proposal_id.');
    if (!projectId)
      throw invalidInput('project_id', 'Pass project_id: one of the ids list_projects returns.');
    await this.requireActiveProject(principal, projectId);
    await this.requireRuleRoom(principal);
    return this.rules.create(
      {
        query: printQuery(parseQuery(query)),
        project_id: projectId,
        weight: input.weight ?? DEFAULT_WEIGHT,
        description: input.description,
      },
      authorOf(principal),
    );
  }

  /** Saves a rule from structured conditions; the assembled query is on the returned rule. */
  async createClassificationRule(
    principal: Principal,
    input: {
      conditions: readonly StructuredCondition[];
      logic?: 'AND' | 'OR' | undefined;
      project_id: string;
      weight?: number | undefined;
      description?: string | undefined;
    },
  ): Promise<Rule> {
    const { assembleQuery } = await engine();
    return this.createRule(principal, {
      ...input,
      query: assembleQuery(input.conditions, input.logic ?? 'AND'),
    });
  }

  /** Changes a rule: write on its project, and on the new one when it moves. */
  async updateRule(
    principal: Principal,
    ruleId: string,
    patch: { query?: string; project_id?: string; weight?: number; description?: string | null },
    expectedVersion?: number,
  ): Promise<Rule> {
    await this.requireRuleWrite(principal, ruleId);
    if (patch.project_id) await this.requireActiveProject(principal, patch.project_id);
    const { parseQuery, printQuery } = await engine();
    const query = patch.query === undefined ? undefined : printQuery(parseQuery(patch.query));
    return this.rules.update(
      ruleId,
      { ...patch, ...(query ? { query } : {}) },
      authorOf(principal),
      expectedVersion,
    );
  }

  async deleteRule(
    principal: Principal,
    ruleId: string,
    expectedVersion?: number,
  ): Promise<{ rule_id: string; deleted: true }> {
    await this.requireRuleWrite(principal, ruleId);
    await this.rules.delete(ruleId, expectedVersion);
    return { rule_id: ruleId, deleted: true };
  }

  /**
   * The rules of the projects the principal may read, each with the events it matched (counted as
   * the timesheet counts) and won in the window (default 30 days back to 30 days ahead, on the
   * calendars it may read), and warnings; with the window used.
   */
  async listRules(
    principal: Principal,
    input: EventScope = {},
    work?: CallWork,
  ): Promise<{ rules: RuleWithUsage[]; window: WindowText }> {
    const { ruleWindow, rulesWithUsage } = await engine();
    const now = this.deps.clock.now();
    const window = ruleWindow(now, input);
    const [{ context, events }, rights] = await Promise.all([
      this.load(principal, window, input.calendar_ids, work),
      this.access.rightsOf(principal),
    ]);
    const readable = (projectId: string) => rights.allows(projectId, 'read');
    const rules = rulesWithUsage(context, events, { window, now: now.getTime() }, readable).filter((rule) =>
      readable(rule.project_id),
    );
    return { rules, window: windowText(window) };
  }

  /**
   * Tests an unsaved query over a window (default 30 days back to 30 days ahead) and calendars
   * (default every readable one). With `project_id`, also what saving it would move between
   * projects; with `timezone`, match times are local times there (else each event's own zone).
   */
  async previewRule(
    principal: Principal,
    input: EventScope & {
      query: string;
      project_id?: string;
      weight?: number;
      limit?: number;
      timezone?: string | undefined;
    },
    work?: CallWork,
  ): Promise<Preview & { window: WindowText; time_zone?: string }> {
    const { parseQuery, requireZone, ruleWindow, compileRule, previewQuery, hideMovesFrom } = await engine();
    const tree = parseQuery(input.query);
    const limit = input.limit ?? DEFAULT_PREVIEW_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PREVIEW_LIMIT)
      throw invalidInput('limit', `limit must be a whole number from 1 to ${MAX_PREVIEW_LIMIT}, e.g. 10.`);
    const zone = input.timezone === undefined ? undefined : requireZone(input.timezone, 'timezone').name;
    if (input.project_id) await this.requireReadableProject(principal, input.project_id);
    const window = ruleWindow(this.deps.clock.now(), input);
    const { context, events } = await this.load(principal, window, input.calendar_ids, work);
    const candidate = input.project_id
      ? compileRule({
          rule_id: '(preview)',
          project_id: input.project_id,
          query: input.query,
          weight: input.weight ?? DEFAULT_WEIGHT,
          created_at: this.deps.clock.now().toISOString(),
        })
      : undefined;
    const preview = previewQuery(tree, events, { limit, context, candidate, zone });
    const rights = await this.access.rightsOf(principal);
    return {
      ...hideMovesFrom(preview, rights),
      window: windowText(window),
      ...(zone ? { time_zone: zone } : {}),
    };
  }

  /**
   * Pins an event, or its whole series, to a project by hand (write on the project, read on the
   * calendar). Pins beat rules. Taking an event out of a project another pin put it in changes
   * that project's timesheet, so it needs write on that project too: the event's own pin, or for
   * one occurrence the series' pin it would override.
   */
  async classifyEvent(
    principal: Principal,
    input: { calendar_id: string; event_id: string; project_id: string; scope?: 'event' | 'series' },
  ): Promise<Pin> {
    await this.requireActiveProject(principal, input.project_id);
    const calendars = await this.deps.calendars();
    const event = await calendars.getEvent(principal, input.calendar_id, input.event_id);
    const scope = input.scope ?? 'event';
    const seriesId = event.recurring_event_id ?? (event.recurrence?.length ? event.id : undefined);
    if (scope === 'series' && !seriesId)
      throw invalidInput('scope', `Event "${input.event_id}" is not part of a series: use scope "event".`);
    const mayMoveFrom = (current: Pin) => this.requirePinMovable(principal, current);
    if (scope === 'event' && event.recurring_event_id) {
      const seriesPin = await this.pins.find(input.calendar_id, 'series', event.recurring_event_id);
      if (seriesPin && seriesPin.project_id !== input.project_id) await mayMoveFrom(seriesPin);
    }
    return this.pins.pin(
      {
        calendar_id: input.calendar_id,
        scope,
        target_id: scope === 'series' ? seriesId! : event.id,
        project_id: input.project_id,
      },
      mayMoveFrom,
    );
  }

  /** FORBIDDEN unless the principal may write the project `pin` put its event in. */
  private async requirePinMovable(principal: Principal, pin: Pin): Promise<void> {
    try {
      await this.access.require(principal, pin.project_id, 'write');
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'FORBIDDEN') throw error;
      const rights = await this.access.rightsOf(principal);
      throw new DomainError(
        'FORBIDDEN',
        `This event was classified by hand into ${rights.allows(pin.project_id, 'read') ? `project ${pin.project_id}` : 'a project you cannot read'}; moving it out needs write access to that project. Ask its owner, or leave the classification as it is.`,
        { missing_right: 'write', resource_kind: 'project', http_status: 403 },
      );
    }
  }

  /** Why one event is classified as it is: the pin or winning rule, and every other match. */
  async explainClassification(
    principal: Principal,
    input: { calendar_id: string; event_id: string },
  ): Promise<Explanation> {
    const { RuleContext, hideUnreadable, explainEvent, toRuleEvent } = await engine();
    const calendars = await this.deps.calendars();
    const record = await calendars.calendarFor(principal, input.calendar_id, 'read');
    const view = await calendars.getEvent(principal, input.calendar_id, input.event_id);
    const [context, rights] = await Promise.all([
      RuleContext.load(this.ruleSources(), [record.calendar_id]),
      this.access.rightsOf(principal),
    ]);
    return hideUnreadable(explainEvent(context, toRuleEvent(view, record)), rights);
  }

  async getTimesheet(
    principal: Principal,
    input: EventScope & {
      start: string;
      end: string;
      group_by?: GroupBy;
      /** Whose days and weeks to group by; default the configured zone, else UTC. */
      timezone?: string;
      project_ids?: readonly string[];
      include_all_day?: boolean;
    },
    work?: CallWork,
  ): Promise<TimesheetReport> {
    for (const projectId of input.project_ids ?? []) await this.access.require(principal, projectId, 'read');
    const { ruleWindow, buildTimesheet, requireZone } = await engine();
    const window = ruleWindow(this.deps.clock.now(), input);
    const [{ context, events }, rights] = await Promise.all([
      this.load(principal, window, input.calendar_ids, work),
      this.access.rightsOf(principal),
    ]);
    return buildTimesheet(context, events, {
      window: windowText(window),
      windowMs: window,
      groupBy: input.group_by ?? 'project',
      zone: input.timezone
        ? requireZone(input.timezone, 'timezone').name
        : (await this.deps.calendars()).zone,
      includeAllDay: input.include_all_day ?? false,
      projectIds: input.project_ids,
      visibleProject: rights.visible,
    });
  }

  /** Rules worth writing, from the window given (default 30 days back to 30 days ahead), with the window used. */
  async getRuleSuggestions(
    principal: Principal,
    input: EventScope = {},
    work?: CallWork,
  ): Promise<{ suggestions: RuleSuggestion[]; window: WindowText }> {
    const { ruleWindow, visibleSuggestions, suggestRules } = await engine();
    const window = ruleWindow(this.deps.clock.now(), input);
    const [{ context, events }, rights] = await Promise.all([
      this.load(principal, window, input.calendar_ids, work),
      this.access.rightsOf(principal),
    ]);
    const suggestions = visibleSuggestions(suggestRules(context, events), context.rules, rights);
    return { suggestions, window: windowText(window) };
  }

  /**
   * Drafts a query from a plain-language description with the organization's own vocabulary
   * (attendee domains, people, calendar names and title words of the principal's calendars, 90
   * days back to 90 days ahead) and previews it over the same window. Words it cannot place stay
   * in the query as `text:` conditions and are named, so the draft is never broader than asked.
   * Never saves: the agent confirms by passing `proposal_id` (or the query) to create_rule.
   */
  async createRuleFromDescription(
    principal: Principal,
    input: { description: string; project_id?: string },
    work?: CallWork,
  ): Promise<
    DraftQuery & {
      note?: string;
      window: WindowText;
      proposal_id?: string;
      preview?: Preview;
      saved: false;
    }
  > {
    if (input.description.trim() === '')
      throw invalidInput(
        'description',
        'Describe the events, e.g. "meetings with people from Acme on Fridays".',
      );
    if (input.project_id) await this.requireReadableProject(principal, input.project_id);
    const {
      ruleWindow,
      draftQuery,
      vocabularyOf,
      unplacedNote,
      compileRule,
      encodeProposal,
      previewQuery,
      parseQuery,
    } = await engine();
    const now = this.deps.clock.now();
    const window = ruleWindow(now, {}, DESCRIPTION_DAYS);
    const { context, events, calendars } = await this.load(principal, window, undefined, work);
    const draft = draftQuery(input.description, vocabularyOf(events, calendars));
    const read = { window: windowText(window), ...unplacedNote(draft, windowText(window)) };
    if (!draft.query) return { ...draft, ...read, saved: false };
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
      ...read,
      proposal_id: encodeProposal({
        query: draft.query,
        ...(input.project_id ? { project_id: input.project_id } : {}),
      }),
      preview: previewQuery(parseQuery(draft.query), events, { limit: 5, context, candidate }),
      saved: false,
    };
  }

  /** QUOTA_EXCEEDED once a key has saved {@link MAX_RULES_PER_KEY} rules. */
  private async requireRuleRoom(principal: Principal): Promise<void> {
    if (principal.kind === 'local-owner') return;
    const author = authorOf(principal);
    const saved = (await this.rules.listAuthored()).filter((rule) => rule.author === author).length;
    if (saved >= MAX_RULES_PER_KEY)
      throw new DomainError(
        'QUOTA_EXCEEDED',
        `This key has saved ${saved} rules, the most one key may keep (${MAX_RULES_PER_KEY}): delete rules it no longer needs (list_rules, delete_rule), or widen one rule's query instead of adding another.`,
        { limit: MAX_RULES_PER_KEY },
      );
  }

  /** What a RuleContext is loaded from: the stores, and each rule author's reach. */
  private ruleSources() {
    return {
      rules: this.rules,
      projects: this.projects,
      pins: this.pins,
      reachOf: (authors: Iterable<string | undefined>) => ruleReachOf(this.deps.access, authors),
    };
  }

  private async load(
    principal: Principal,
    window: EventWindow,
    calendarIds?: readonly string[],
    work?: CallWork,
  ) {
    const { readRuleEvents, RuleContext, ShadowStore } = await engine();
    this.shadow ??= new ShadowStore(this.deps.store);
    const calendars = await this.deps.calendars();
    const read = await readRuleEvents(calendars, this.shadow, principal, window, calendarIds, work);
    const context = await RuleContext.load(
      this.ruleSources(),
      read.calendars.map((c) => c.calendar_id),
    );
    return { context, events: read.events, calendars: read.calendars.map((c) => c.name) };
  }

  /**
   * Write on the project the rule classifies into. A rule of a project the caller may not read is
   * answered exactly as a missing one (NOT_FOUND), so a rule id tells nothing of its existence or
   * project; read without write is FORBIDDEN naming the project, which list_rules shows anyway.
   */
  private async requireRuleWrite(principal: Principal, ruleId: string): Promise<void> {
    const [rule, rights] = await Promise.all([this.rules.find(ruleId), this.access.rightsOf(principal)]);
    if (!rule || !rights.allows(rule.project_id, 'read')) throw ruleNotFound(ruleId);
    await this.access.require(principal, rule.project_id, 'write');
  }

  private async requireReadableProject(principal: Principal, projectId: string): Promise<Project> {
    await this.access.require(principal, projectId, 'read');
    return this.projects.require(projectId);
  }

  /** A project to classify into: write on it (checked before existence, so ids leak nothing), not archived. */
  private async requireActiveProject(principal: Principal, projectId: string): Promise<Project> {
    await this.access.require(principal, projectId, 'write');
    const project = await this.projects.require(projectId);
    if (project.archived)
      throw invalidInput(
        'project_id',
        `Project "${project.name}" (${projectId}) is archived: unarchive it with update_project, or pick another.`,
      );
    return project;
  }
}

/** How far create_rule_from_description reads names and titles back from now and ahead of it. */
const DESCRIPTION_DAYS = 90;

type WindowText = { start: string; end: string };

function windowText(window: EventWindow): WindowText {
  return { start: new Date(window.from).toISOString(), end: new Date(window.to).toISOString() };
}

function invalidInput(field: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', message, { field });
}
