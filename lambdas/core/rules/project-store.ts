import * as z from 'zod';
import { DomainError } from '../errors.js';
import type { Clock, DocumentStore, RandomSource } from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import { updateVersioned } from './versioned-update.js';
import { withoutUndefined } from './without-undefined.js';

/** A project: the organization's unit of work that calendar time is classified into. */
export const Project = z.object({
  project_id: z.string(),
  name: z.string().min(1).max(200),
  client: z.string().max(200).optional(),
  /** A display color, `#rrggbb`. */
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'expected a color as #rrggbb')
    .optional(),
  billable: z.boolean(),
  /** How each event's minutes are rounded on timesheets; none: exact minutes. */
  rounding: z
    .object({ minutes: z.number().int().min(1).max(240), mode: z.enum(['up', 'nearest']) })
    .optional(),
  archived: z.boolean(),
  version: z.number().int().min(1),
  created_at: z.string(),
});
export type Project = z.infer<typeof Project>;

/** What a caller sets on creation or changes on update. */
export const ProjectFields = Project.pick({
  name: true,
  client: true,
  color: true,
  billable: true,
  rounding: true,
  archived: true,
}).partial();
export type ProjectFields = z.infer<typeof ProjectFields>;

const projectKey = (projectId: string) => ({ pk: `${PK_PREFIX.project}${projectId}`, sk: SK.project.record });
const projectIndex = (projectId: string) => ({ gsi1pk: GSI1PK.projects, gsi1sk: projectId });
const parse = (raw: unknown) => Project.parse(raw);

/**
 * Projects in the document store (see docs/data-model.md): one item each, listed through the
 * index. Every update is conditional on the version read, so concurrent edits never lose one.
 */
export class ProjectStore {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock; random: RandomSource }) {}

  async create(fields: ProjectFields & { name: string }): Promise<Project> {
    const project = Project.parse({
      billable: false,
      archived: false,
      ...withoutUndefined(fields),
      project_id: `prj_${this.deps.random.uuid().replace(/-/g, '').slice(0, 16)}`,
      version: 1,
      created_at: this.deps.clock.now().toISOString(),
    });
    await this.deps.store.put(
      { ...projectKey(project.project_id), ...projectIndex(project.project_id), ...project },
      { condition: { op: 'not_exists' } },
    );
    return project;
  }

  async find(projectId: string): Promise<Project | undefined> {
    const raw = await this.deps.store.get(projectKey(projectId), { consistent: true });
    return raw ? parse(raw) : undefined;
  }

  /** The project, or NOT_FOUND saying how to find project ids. */
  async require(projectId: string): Promise<Project> {
    const project = await this.find(projectId);
    if (!project) throw notFound(projectId);
    return project;
  }

  /** Every project, archived ones only when asked, by name. */
  async list(options: { includeArchived?: boolean } = {}): Promise<Project[]> {
    const items = await queryAll(this.deps.store, { index: 'gsi1', partition: GSI1PK.projects });
    return items
      .map(parse)
      .filter((p) => options.includeArchived || !p.archived)
      .sort((a, b) => a.name.localeCompare(b.name) || a.project_id.localeCompare(b.project_id));
  }

  /**
   * Changes the given fields; `null` clears an optional one. With `expectedVersion`, refused
   * with STALE_WRITE if the project changed since that version was read.
   */
  async update(
    projectId: string,
    patch: { [K in keyof ProjectFields]?: ProjectFields[K] | null },
    expectedVersion?: number,
  ): Promise<Project> {
    return updateVersioned(
      this.deps.store,
      projectKey(projectId),
      parse,
      (current) => {
        const next: Record<string, unknown> = { ...current };
        for (const [field, value] of Object.entries(patch)) {
          if (value === null) delete next[field];
          else if (value !== undefined) next[field] = value;
        }
        return Project.parse(next);
      },
      {
        what: `project "${projectId}"`,
        notFound: () => notFound(projectId),
        expectedVersion,
        index: () => projectIndex(projectId),
      },
    );
  }
}

function notFound(projectId: string): DomainError {
  return new DomainError('NOT_FOUND', `No project "${projectId}". Call list_projects for the ids.`, {
    project_id: projectId,
  });
}
