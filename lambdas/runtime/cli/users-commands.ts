import { formatResourceRef, type Grant, parseResourceRef } from '../../core/access/rights.js';
import { Administrators } from '../../core/auth/administrators.js';
import { isConsentOf } from '../../core/auth/consent-label.js';
import { LocalUsers } from '../../core/auth/local-users.js';
import type { EmbeddedRuntime } from '../embedded.js';
import { type CliOutput, UsageError } from './access-commands.js';

const USERS_USAGE =
  'Usage: meridian users add NAME (password on stdin) | users add NAME --external | users list | users remove NAME | users grant NAME RESOURCE none|read|write | users grants NAME | users admin NAME on|off';

const GRANTS: readonly Grant[] = ['none', 'read', 'write'];

/**
 * The password, read whole from stdin (`printf '%s' "$PW" | meridian users add alice`): never an
 * argument, which other users of the machine see in the process list. One trailing newline is
 * dropped, so `echo` works too.
 */
export async function readPasswordFromStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * `meridian users add|list|remove|grant|grants`: the people who sign in to `serve` (OAuth), or,
 * with `--aws`, to a deployment. `--external`: a person who signs in only at the organization's
 * OpenID Connect issuer, by the name it gives them (their email, or `<issuer host>:<sub>`), with
 * no password here. Answers what a change touched (`users remove`: the consents it revoked), for
 * the audit log.
 */
export async function usersCommand(
  runtime: EmbeddedRuntime,
  args: string[],
  out: CliOutput,
  readPassword: () => Promise<string> = () => readPasswordFromStdin(),
  options: { external?: boolean | undefined } = {},
): Promise<unknown> {
  const users = new LocalUsers({ store: runtime.store, clock: runtime.clock });
  const [action, name, resourceText, grant] = args;
  if (action === 'add') {
    if (!name) throw new UsageError(`users add needs a NAME.\n${USERS_USAGE}`);
    const user = await users.add(name, options.external ? undefined : await readPassword());
    out.line(
      user.external
        ? `Added ${user.user_name}, who signs in at the organization's issuer (no password here).`
        : `Added ${user.user_name}. They sign in when an MCP client connects to \`meridian serve\`.`,
    );
    out.line(
      `They may use nothing yet: \`meridian users grant ${user.user_name} <calendar-id|project/<id>> read|write\`.`,
    );
    return;
  }
  if (action === 'list') {
    const all = await users.list();
    if (all.length === 0)
      return out.line('No users. Add one with `meridian users add NAME` (password on stdin).');
    for (const user of all)
      out.line(
        `${user.user_name}  added ${user.created_at}${user.external ? '  (signs in at the issuer)' : ''}`,
      );
    return;
  }
  if (action === 'remove') {
    if (!name) throw new UsageError(`users remove needs a NAME.\n${USERS_USAGE}`);
    await users.remove(name);
    // Their consents end with them: the clients' access tokens stop at their next request, and
    // their refresh tokens find no account to refresh for.
    const consents = (await runtime.access.listKeys()).filter(
      (key) => !key.revoked_at && isConsentOf(key.label, name),
    );
    for (const key of consents) await runtime.access.revokeKey(key.key_id);
    out.line(
      consents.length === 0
        ? `Removed ${name}. They had given no client a consent.`
        : `Removed ${name} and revoked their ${consents.length} consent(s): ${consents.map((key) => key.key_id).join(', ')}.`,
    );
    return { user_name: name, revoked_key_ids: consents.map((key) => key.key_id) };
  }
  if (action === 'grant') {
    if (!name || !resourceText || !GRANTS.includes(grant as Grant)) throw new UsageError(USERS_USAGE);
    const resource = parseResourceRef(resourceText);
    if (resource.kind === 'calendar') await runtime.registry.requireCalendar(resource.id);
    await users.setGrant(name, resource, grant as Grant);
    out.line(`${name} → ${formatResourceRef(resource)}: ${grant}`);
    return;
  }
  if (action === 'grants') {
    if (!name) throw new UsageError(USERS_USAGE);
    const grants = await users.grantsOf(name);
    if (grants.length === 0) return out.line(`${name} has no grants.`);
    for (const g of grants) out.line(`${formatResourceRef(g.resource)}  ${g.right}`);
    return;
  }
  if (action === 'admin') {
    // The admin page (/oauth/admin) lets administrators list and revoke every client and session.
    if (!name || (resourceText !== 'on' && resourceText !== 'off')) throw new UsageError(USERS_USAGE);
    await new Administrators(runtime).set(name, resourceText === 'on', (person) => users.exists(person));
    out.line(
      resourceText === 'on'
        ? `${name} is an administrator: they may use /oauth/admin on \`meridian serve\`.`
        : `${name} is no longer an administrator.`,
    );
    return { user_name: name };
  }
  throw new UsageError(USERS_USAGE);
}
