import type { ApiKeySummary } from '../../core/access/access-store.js';
import { formatResourceRef, type Grant, parseResourceRef } from '../../core/access/rights.js';
import { sanitizeText } from '../../core/firewall/sanitize-text.js';
import { parseRateOverrides } from '../../core/limits/rate.js';
import { TOOLSET_NAMES } from '../../mcp/tools/index.js';
import { parseToolsets } from '../../mcp/toolsets.js';
import type { EmbeddedRuntime } from '../embedded.js';
import { RATE_LIMIT_ENV } from '../environment-names.js';

/** Output sink, so commands are testable without touching process.stdout. */
export interface CliOutput {
  line(text: string): void;
  error(text: string): void;
}

const GRANTS: readonly Grant[] = ['none', 'read', 'write'];

class UsageError extends Error {
  override readonly name = 'UsageError';
}

export { UsageError };

const KEYS_USAGE =
  'Usage: meridian keys create --label NAME [--toolsets LIST] | keys list | keys revoke KEY_ID | keys toolsets KEY_ID LIST|all | keys limits KEY_ID requests=RATE,expensive=RATE|default';

function toolsetsText(key: ApiKeySummary): string {
  return key.toolsets ? key.toolsets.join(',') : 'all toolsets';
}

function limitsText(key: ApiKeySummary): string {
  const own = Object.entries(key.limits ?? {}).map(([name, rate]) => `${name}=${rate}`);
  return own.length > 0 ? `limits ${own.join(',')}` : 'server limits';
}

/** `meridian keys create|list|revoke|toolsets|limits`; `create` answers the new key's id. */
export async function keysCommand(
  runtime: EmbeddedRuntime,
  args: string[],
  flags: { label?: string; toolsets?: string },
  out: CliOutput,
): Promise<{ key_id: string } | undefined> {
  const [action, keyId] = args;
  if (action === 'create') {
    // A label is shown back in listings and logs: the one rule for stored text applies to it too.
    const label = sanitizeText(flags.label ?? '').text.trim();
    if (!label)
      throw new UsageError('keys create needs --label NAME with visible text (e.g. --label laptop).');
    const toolsets =
      flags.toolsets === undefined ? undefined : parseToolsets(flags.toolsets, TOOLSET_NAMES, '--toolsets');
    const key = await runtime.access.createKey(label, toolsets ? { toolsets } : {});
    out.line(
      `Created API key ${key.key_id} (${key.label}, ${toolsetsText(key)}). Copy it now — it is shown only once:\n`,
    );
    out.line(`  ${key.token}\n`);
    out.line(
      `It can use no calendar yet: grant some with \`meridian grants set ${key.key_id} <calendar-id> read|write\`,`,
    );
    out.line('or let the client create its own with the create_calendar tool.');
    // The id for the audit log (cli/audited-command.ts); never the token.
    return { key_id: key.key_id };
  }
  if (action === 'list') {
    const keys = await runtime.access.listKeys();
    if (keys.length === 0) {
      out.line('No API keys. Create one with `meridian keys create --label NAME`.');
      return;
    }
    for (const key of keys) {
      out.line(
        `${key.key_id}  ${key.label.padEnd(20)}  created ${key.created_at}  ${toolsetsText(key)}  ${limitsText(key)}${key.revoked_at ? `  REVOKED ${key.revoked_at}` : ''}`,
      );
    }
    return;
  }
  if (action === 'revoke') {
    if (!keyId) throw new UsageError('keys revoke needs a key id (see `meridian keys list`).');
    const revoked = await runtime.access.revokeKey(keyId);
    out.line(`Revoked ${revoked.key_id} (${revoked.label}); requests with it now get 401.`);
    return;
  }
  if (action === 'toolsets') {
    const list = args[2];
    if (!keyId || list === undefined)
      throw new UsageError(`keys toolsets needs KEY_ID and LIST.\n${KEYS_USAGE}`);
    const key = await runtime.access.setKeyToolsets(
      keyId,
      parseToolsets(list, TOOLSET_NAMES, 'the toolset list'),
    );
    out.line(
      `${key.key_id} (${key.label}): ${toolsetsText(key)} when a connection chooses none (?toolsets=).`,
    );
    return;
  }
  if (action === 'limits') {
    const list = args[2];
    if (!keyId || list === undefined)
      throw new UsageError(`keys limits needs KEY_ID and RATES.\n${KEYS_USAGE}`);
    const key = await runtime.access.setKeyLimits(
      keyId,
      list === 'default' ? undefined : parseRateOverrides(list, 'keys limits'),
    );
    out.line(`${key.key_id} (${key.label}): ${limitsText(key)} (the rest: the server's, ${RATE_LIMIT_ENV}).`);
    return;
  }
  throw new UsageError(KEYS_USAGE);
}

const GRANTS_USAGE =
  'Usage: meridian grants set KEY_ID RESOURCE none|read|write | grants list KEY_ID\n' +
  'RESOURCE is a calendar id (e.g. native/abc, from `meridian calendars list`) or project/<project id>.';

function rightText(right: Grant): string {
  return right === 'write' ? 'read+write' : right;
}

/**
 * `meridian grants set KEY RESOURCE none|read|write` and `meridian grants list KEY`. A calendar
 * must exist to be granted; projects have no store yet, so a project grant is recorded as named.
 */
export async function grantsCommand(runtime: EmbeddedRuntime, args: string[], out: CliOutput) {
  const [action, keyId, resourceText, grant] = args;
  if (action === 'set') {
    if (!keyId || !resourceText || !GRANTS.includes(grant as Grant)) throw new UsageError(GRANTS_USAGE);
    const resource = parseResourceRef(resourceText);
    if (resource.kind === 'calendar') await runtime.registry.requireCalendar(resource.id);
    await runtime.access.setGrant(keyId, resource, grant as Grant);
    out.line(`${keyId} → ${formatResourceRef(resource)}: ${rightText(grant as Grant)}`);
    return;
  }
  if (action === 'list') {
    if (!keyId) throw new UsageError('Usage: meridian grants list KEY_ID');
    const grants = await runtime.access.grantsOf(keyId);
    if (grants.length === 0) return out.line(`${keyId} has no grants.`);
    for (const { resource, right } of grants) out.line(`${formatResourceRef(resource)}  ${rightText(right)}`);
    return;
  }
  throw new UsageError(GRANTS_USAGE);
}

/** `meridian calendars list`: every calendar the owner has, with ids to grant. */
export async function calendarsCommand(runtime: EmbeddedRuntime, args: string[], out: CliOutput) {
  if (args[0] !== 'list') throw new UsageError('Usage: meridian calendars list');
  const calendars = await runtime.registry.listCalendars();
  if (calendars.length === 0)
    return out.line(
      'No calendars yet. Connect one (`meridian connect …`) or create one with create_calendar.',
    );
  for (const c of calendars)
    out.line(`${c.calendar_id}  ${c.name}${c.primary ? '  (primary)' : ''}  [${c.access_role}]`);
}
