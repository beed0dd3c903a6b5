import { DomainError } from '../errors.js';
import type { RateOverrides } from '../limits/rate.js';

/** What a key may do on one resource. `write` includes `read`. */
export type Right = 'read' | 'write';
export type Grant = 'none' | Right;

/**
 * The kinds of resource a key is granted rights on. Calendars first; projects (rules and their
 * memory) share the same none/read/write matrix and the same FORBIDDEN refusal.
 */
export const RESOURCE_KINDS = ['calendar', 'project'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** One resource a grant names: its kind and its id (a calendar id is provider-prefixed, `native/…`). */
export interface ResourceRef {
  kind: ResourceKind;
  id: string;
}

/** A grant as listed: the resource and the right. */
export interface ResourceGrant {
  resource: ResourceRef;
  right: Right;
}

/** The resource a calendar id names. */
export function calendarResource(calendarId: string): ResourceRef {
  return { kind: 'calendar', id: calendarId };
}

const PROJECT_PREFIX = 'project/';

/**
 * Reads the resource the CLI names: `project/<id>` is a project; anything else is a calendar id
 * (calendar ids are provider-prefixed — `native/`, `google/`, `caldav/` — so the two never meet).
 *
 * @example
 * parseResourceRef('project/acme'); // { kind: 'project', id: 'acme' }
 * parseResourceRef('native/work'); // { kind: 'calendar', id: 'native/work' }
 */
export function parseResourceRef(text: string): ResourceRef {
  if (!text.startsWith(PROJECT_PREFIX)) return { kind: 'calendar', id: text };
  const id = text.slice(PROJECT_PREFIX.length);
  // `#` separates the parts of a stored key (docs/data-model.md); `/` would read as a path.
  if (!/^[^#/]+$/.test(id)) {
    throw new DomainError(
      'INVALID_INPUT',
      `"${text}" names no project: expected project/<project id>, with no "/" or "#" in the id (e.g. "project/acme").`,
      { field: 'resource', expected: 'project/<project id>', example: 'project/acme' },
    );
  }
  return { kind: 'project', id };
}

/** The inverse of {@link parseResourceRef}: what to type to name the resource on the command line. */
export function formatResourceRef(resource: ResourceRef): string {
  return resource.kind === 'project' ? `${PROJECT_PREFIX}${resource.id}` : resource.id;
}

/**
 * Who is calling. An API key over HTTP (with the toolsets its connections get when they choose
 * none, if the owner set a default); the local owner over stdio and the CLI, who may do
 * everything (they own the machine and the data dir).
 */
export type Principal =
  | {
      kind: 'api-key';
      keyId: string;
      label: string;
      toolsets?: readonly string[];
      /**
       * Set for an OAuth access token (its key is the consent it was issued under): the toolsets
       * the person consented to, which its connections may not go beyond — an API key's
       * `toolsets` is only a default.
       */
      consentedToolsets?: readonly string[];
      /** The key's own request budgets, over the server's (`meridian keys limits`). */
      limits?: RateOverrides;
    }
  | { kind: 'local-owner' };

export const LOCAL_OWNER: Principal = { kind: 'local-owner' };

/** True when `grant` includes `right`. */
export function grantAllows(grant: Grant | undefined, right: Right): boolean {
  if (grant === 'write') return true;
  return grant === 'read' && right === 'read';
}

/** A stable name for logs and audit fields; never the secret. */
export function principalName(principal: Principal): string {
  return principal.kind === 'local-owner' ? 'local-owner' : keyPrincipalName(principal.keyId);
}

/** {@link principalName} of the principal a key id stands for, before the key is checked. */
export function keyPrincipalName(keyId: string): string {
  return `key:${keyId}`;
}
