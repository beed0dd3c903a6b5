import type { AccessStore } from '../access/access-store.js';
import { grantAllows, type Principal, type ResourceRef, type Right } from '../access/rights.js';

/**
 * Where a key's view stops: time, rules and pins of projects it may not read are shown under
 * this one id, never under the project's own (a timesheet still adds up, and leaks no names).
 */
export const OTHER_PROJECTS = 'other';

/** The resource a project id names in grants (`project/<id>` on the command line). */
export function projectResource(projectId: string): ResourceRef {
  return { kind: 'project', id: projectId };
}

/** What one principal may do on each project, read once per call. */
export interface ProjectRights {
  allows(projectId: string, right: Right): boolean;
  /** The right the principal holds on the project, if any (`write` includes `read`). */
  rightOn(projectId: string): Right | undefined;
  /** The project id as this principal may see it: its own when readable, else {@link OTHER_PROJECTS}. */
  visible(projectId: string): string;
}

/**
 * Grants on projects, checked the same way by every rules tool: a project is a grantable
 * resource (none/read/write per key, like a calendar); the local owner may do everything.
 * Reading a project's rules, timesheet time and pins needs read; changing them, or classifying
 * an event into the project, needs write.
 */
export class ProjectAccess {
  constructor(private readonly access: AccessStore) {}

  /** FORBIDDEN (naming the project, the missing right and the grant command) unless allowed. */
  async require(principal: Principal, projectId: string, right: Right): Promise<void> {
    await this.access.requireRight(principal, projectResource(projectId), right);
  }

  /** Every right of the principal on projects, for filtering lists without a read per project. */
  async rightsOf(principal: Principal): Promise<ProjectRights> {
    const rights =
      principal.kind === 'api-key' ? await this.access.rightsOn(principal.keyId, 'project') : undefined;
    const rightOn = (projectId: string): Right | undefined => (rights ? rights.get(projectId) : 'write');
    const allows = (projectId: string, right: Right) => grantAllows(rightOn(projectId), right);
    return {
      allows,
      rightOn,
      visible: (projectId) => (allows(projectId, 'read') ? projectId : OTHER_PROJECTS),
    };
  }

  /** Grants a new project to the key that created it, and to no other key. */
  async grantToCreator(principal: Principal, projectId: string): Promise<void> {
    if (principal.kind === 'api-key')
      await this.access.setGrant(principal.keyId, projectResource(projectId), 'write');
  }
}
