import type { Resource } from '@modelcontextprotocol/server';
import type { Project } from '../../core/rules/project-store.js';
import type { Rule } from '../../core/rules/rule-store.js';
import { rulesSyntaxMarkdown } from '../../core/rules/syntax-docs.js';
import type { RulesSlice, ToolContext } from '../deps.js';
import { defineResourceFamily } from '../resource-registry.js';
import { projectIdInput } from '../tools/rules/rules-schemas.js';

const SCHEME = 'timesheet://';
const SYNTAX_URI = `${SCHEME}docs/rules-syntax`;
const PROJECTS_URI = `${SCHEME}projects`;
const RULES_URI = `${SCHEME}rules`;
const PROJECT_PREFIX = `${PROJECTS_URI}/`;
const JSON_TYPE = 'application/json';

/** Every project the caller may read, archived ones too (flagged): a grant is what hides one. */
const readableProjects = (deps: RulesSlice, context: ToolContext) =>
  deps.rules.listProjects(context.principal, { includeArchived: true });

const projectUri = (projectId: string) => `${PROJECT_PREFIX}${encodeURIComponent(projectId)}`;

const STATIC_RESOURCES: readonly Resource[] = [
  {
    uri: SYNTAX_URI,
    name: 'rules-syntax',
    title: 'Classification rules syntax',
    description:
      'Every property, operator and error of the rule query language, with examples. Read it before writing a rule.',
    mimeType: 'text/markdown',
  },
  {
    uri: PROJECTS_URI,
    name: 'projects',
    title: 'Projects',
    description: 'The projects you may read (archived ones flagged), with billing fields and ids for rules.',
    mimeType: JSON_TYPE,
  },
  {
    uri: RULES_URI,
    name: 'rules',
    title: 'Classification rules',
    description: 'Saved rules of the projects you may read: query, project, weight.',
    mimeType: JSON_TYPE,
  },
];

function projectView(project: Project) {
  const { version: _version, ...fields } = project;
  return { ...fields, uri: projectUri(project.project_id) };
}

function ruleView(rule: Rule, projectName: string) {
  return { ...rule, project_name: projectName };
}

function json(uri: string, body: unknown) {
  return [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(body) }];
}

/** Saved rules whose project the caller may read, oldest first, each with its project's name. */
async function readableRules(deps: RulesSlice, context: ToolContext, only?: Project) {
  const projects = only ? [only] : await readableProjects(deps, context);
  const names = new Map(projects.map((project) => [project.project_id, project.name]));
  const rules = await deps.rules.rules.list();
  return rules
    .filter((rule) => names.has(rule.project_id))
    .map((rule) => ruleView(rule, names.get(rule.project_id)!));
}

/**
 * `timesheet://` — the rules toolset's resources: the syntax reference (generated from the
 * parser's property table), the projects and rules the caller may read, and one resource per
 * project (`timesheet://projects/{project_id}`: the project with its rules). A project the
 * caller may not read is neither listed nor readable: reading it answers as an unknown URI.
 */
export const timesheetResources = defineResourceFamily({
  scheme: SCHEME,
  toolset: 'rules',
  needs: 'rules',
  templates: [
    {
      uriTemplate: `${PROJECT_PREFIX}{project_id}`,
      name: 'project',
      title: 'Project',
      description: 'One project with its classification rules. project_id as in timesheet://projects.',
      mimeType: JSON_TYPE,
    },
  ],
  async list(deps, context) {
    const projects = await readableProjects(deps, context);
    return [
      ...STATIC_RESOURCES,
      ...projects.map((project) => ({
        uri: projectUri(project.project_id),
        name: `project-${project.project_id}`,
        title: project.archived ? `${project.name} (archived)` : project.name,
        description: `Project "${project.name}" and its classification rules.`,
        mimeType: JSON_TYPE,
      })),
    ];
  },
  async read(deps, uri, context) {
    if (uri === SYNTAX_URI) return [{ uri, mimeType: 'text/markdown', text: rulesSyntaxMarkdown() }];
    if (uri === PROJECTS_URI) {
      const projects = await readableProjects(deps, context);
      return json(uri, { projects: projects.map(projectView) });
    }
    if (uri === RULES_URI) return json(uri, { rules: await readableRules(deps, context) });
    if (!uri.startsWith(PROJECT_PREFIX)) return undefined;
    const projectId = safeDecode(uri.slice(PROJECT_PREFIX.length));
    // An id the rules tools would refuse (too long) names no project: nothing is listed for it.
    if (!projectIdInput.safeParse(projectId).success) return undefined;
    const projects = await readableProjects(deps, context);
    const project = projects.find((candidate) => candidate.project_id === projectId);
    if (!project) return undefined;
    return json(uri, { project: projectView(project), rules: await readableRules(deps, context, project) });
  },
});

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
