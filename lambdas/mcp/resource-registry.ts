import type {
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type { DepsSlice, SliceDeps, ToolContext } from './deps.js';

/**
 * A family of MCP resources under one URI scheme (`timesheet://`, `memory://`), served when the
 * connection enables its toolset: off, the family is neither listed nor readable, like its tools.
 * Reads and listings that depend on stored data get the slice the family declares; a family
 * decides itself what the caller may see (grants), since only it knows which resource a URI names.
 */
export interface ResourceFamily<Needs extends DepsSlice = DepsSlice> {
  /** The URI prefix it answers for, e.g. `timesheet://`. */
  scheme: string;
  toolset: string;
  needs: Needs;
  /** Parameterised URIs (RFC 6570), e.g. `timesheet://projects/{project_id}`. */
  templates: readonly ResourceTemplate[];
  /** Every resource the caller may read now, the concrete ones behind the templates included. */
  list(deps: SliceDeps[Needs], context: ToolContext): Promise<Resource[]>;
  /** The resource's contents, or undefined when no resource this caller may read has that URI. */
  read(
    deps: SliceDeps[Needs],
    uri: string,
    context: ToolContext,
  ): Promise<ReadResourceResult['contents'] | undefined>;
}

/**
 * Declares a resource family with its slice's type checked against its handlers.
 *
 * @example
 * export const notes = defineResourceFamily({ scheme: 'notes://', toolset: 'time', needs: 'time',
 *   templates: [], list: async () => [], read: async () => undefined });
 */
export function defineResourceFamily<Needs extends DepsSlice>(
  family: ResourceFamily<Needs>,
): ResourceFamily<Needs> {
  return family;
}

/** The family whose scheme a URI has, if any. */
export function familyOf(families: readonly ResourceFamily[], uri: string): ResourceFamily | undefined {
  return families.find((family) => uri.startsWith(family.scheme));
}
