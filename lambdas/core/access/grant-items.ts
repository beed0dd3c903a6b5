import * as z from 'zod';
import { SK } from '../storage/key-prefixes.js';
import type { ResourceGrant, ResourceRef, Right } from './rights.js';

/** Every grant of a key sorts under this prefix, so one query returns all of them. */
export const GRANT_PREFIX = SK.apiKey.grantPrefix;

/**
 * The sort key of a grant. A calendar grant keeps the key it had before grants named a kind
 * (`GRANT#<calendar id>`), so items written then are found, changed and removed in place with
 * no migration; other kinds put the kind first (`GRANT#project#<id>`). The two cannot meet:
 * calendar ids begin with their provider and a slash (`native/…`).
 */
export function grantSortKey(resource: ResourceRef): string {
  return resource.kind === 'calendar'
    ? `${GRANT_PREFIX}${resource.id}`
    : `${GRANT_PREFIX}${resource.kind}#${resource.id}`;
}

const RightSchema = z.enum(['read', 'write']);

const KindedGrantItem = z.object({
  resource_kind: z.enum(['calendar', 'project']),
  resource_id: z.string(),
  right: RightSchema,
  granted_at: z.string(),
});

/** Written before grants named a kind: always a calendar grant. */
const CalendarOnlyGrantItem = z.object({
  calendar_id: z.string(),
  right: RightSchema,
  granted_at: z.string(),
});

/** The stored fields of a grant (beside its key). */
export function grantItemFields(resource: ResourceRef, right: Right, grantedAt: string) {
  return { resource_kind: resource.kind, resource_id: resource.id, right, granted_at: grantedAt };
}

/** A grant read back, from either item shape; throws (zod) on anything else. */
export function grantFromItem(raw: unknown): ResourceGrant {
  const kinded = KindedGrantItem.safeParse(raw);
  if (kinded.success) {
    return {
      resource: { kind: kinded.data.resource_kind, id: kinded.data.resource_id },
      right: kinded.data.right,
    };
  }
  const legacy = CalendarOnlyGrantItem.parse(raw);
  return { resource: { kind: 'calendar', id: legacy.calendar_id }, right: legacy.right };
}
