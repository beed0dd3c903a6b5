import type { AuditLog } from '../../core/audit/audit-log.js';
import {
  type AuditCompletion,
  digestOf,
  redactedValues,
  resourceIds,
} from '../../core/audit/audit-record.js';
import { isDomainError } from '../../core/errors.js';
import type { Clock } from '../../core/ports/index.js';

const CLIENT_CHARS = 80;

/** The sign-in's audit actions: sign-ins and consents, registrations and revocations. */
export const OAUTH_ACTION = {
  signIn: 'oauth sign-in',
  consentGrant: 'oauth consent grant',
  consentRevoke: 'oauth consent revoke',
  clientRegister: 'oauth client register',
  tokenRevoke: 'oauth token revoke',
  adminSessionRevoke: 'oauth admin session revoke',
  adminClientRevoke: 'oauth admin client revoke',
} as const;

export interface OauthAuditDeps {
  /** Absent with MERIDIAN_AUDIT=off. */
  audit?: AuditLog;
  clock: Clock;
}

/** One change the authorization server makes: who, from which client, naming what. Never a secret. */
export interface OauthChange {
  action: (typeof OAUTH_ACTION)[keyof typeof OAUTH_ACTION];
  /** `user:<name>`, `client:<id>`, or `anonymous` before anyone is known. */
  principal: string;
  /** The OAuth client id, else the user agent. */
  client: string;
  requestId?: string;
  /** Small values, redacted as a tool's arguments are (ids as they are, text by its length). */
  values?: Record<string, unknown>;
  resourceIds?: string[];
}

/** How a change ended, as the audit log keeps it (`completed_at` is added). */
export type OauthOutcome = Omit<AuditCompletion, 'completed_at'>;

/** A change recorded as pending: complete it once its outcome is known. */
export interface PendingOauthChange {
  complete(outcome: OauthOutcome): Promise<void>;
}

/**
 * Appends `change` to the audit log as pending, before it is made (the audit log's rule: an
 * acknowledged change always has its record). Undefined when the log is off.
 */
export async function beginOauthChange(
  deps: OauthAuditDeps,
  change: OauthChange,
): Promise<PendingOauthChange | undefined> {
  const { audit, clock } = deps;
  if (!audit) return undefined;
  const values = change.values ?? {};
  const pending = await audit.begin({
    at: clock.now().toISOString(),
    principal: change.principal,
    client: change.client.slice(0, CLIENT_CHARS),
    source: 'oauth',
    action: change.action,
    request_id: change.requestId ?? crypto.randomUUID(),
    input_digest: digestOf(values),
    input_values: redactedValues(values),
    resource_ids: change.resourceIds ?? resourceIds(values),
  });
  return {
    complete: async (outcome) => {
      await audit.complete(pending, { completed_at: clock.now().toISOString(), ...outcome });
    },
  };
}

/**
 * Runs `make` as an audited change: pending before, completed after with `outcomeOf` its result
 * (ok by default), or `refused` with the code of a domain error / `failed` for a fault, rethrown.
 *
 * @example
 * await auditedOauthChange(deps, { action: OAUTH_ACTION.consentRevoke, principal: 'client:abc', client: 'abc' }, () => access.revokeKey(id));
 */
export async function auditedOauthChange<T>(
  deps: OauthAuditDeps,
  change: OauthChange,
  make: () => Promise<T>,
  outcomeOf: (result: T) => OauthOutcome = () => ({ outcome: 'ok' }),
): Promise<T> {
  const pending = await beginOauthChange(deps, change);
  try {
    const result = await make();
    await pending?.complete(outcomeOf(result));
    return result;
  } catch (error) {
    await pending?.complete(
      isDomainError(error) ? { outcome: 'refused', code: error.code } : { outcome: 'failed' },
    );
    throw error;
  }
}
