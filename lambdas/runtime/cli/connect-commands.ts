import { createInterface } from 'node:readline/promises';
import { authorizeWithLoopback } from '../../adapters/google/google-oauth.js';
import { calendarResource } from '../../core/access/rights.js';
import type { CalendarRecord, ConnectionRecord } from '../../core/calendar/calendar-registry.js';
import type { EmbeddedRuntime } from '../embedded.js';
import { CALDAV_PASSWORD_ENV } from '../environment-names.js';
import { calendarPrefix, providerFactories } from '../provider-factories.js';
import { secretContext } from '../provider-resolver.js';
import { type CliOutput, UsageError } from './access-commands.js';

interface ConnectFlags {
  key?: string | undefined;
  label?: string | undefined;
  url?: string | undefined;
  username?: string | undefined;
  /** Outlook: sign in through a browser on this machine instead of a device code. */
  browser?: boolean | undefined;
}

async function promptHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new UsageError(`No terminal to ask for the password: set ${CALDAV_PASSWORD_ENV}.`);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Mute the echo of typed characters: the password must not appear on screen or in scrollback.
  const output = rl as unknown as { _writeToOutput: (s: string) => void };
  output._writeToOutput = (text: string) => {
    if (text.startsWith(question)) process.stderr.write(question);
  };
  try {
    return await rl.question(question);
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

/**
 * Stores a new connection (secret encrypted, bound to its id), discovers its calendars, and
 * grants them to `--key` only — never to every key. Verifies the credentials first by listing
 * calendars, so nothing is stored for a wrong password.
 */
async function register(
  runtime: EmbeddedRuntime,
  draft: Omit<ConnectionRecord, 'secret_ciphertext' | 'created_at'>,
  secret: Record<string, string>,
  flags: ConnectFlags,
  out: CliOutput,
) {
  const secretText = JSON.stringify(secret);
  const factory = providerFactories(runtime.environment)[draft.provider];
  if (!factory) throw new UsageError(`${draft.provider} is not configured.`);
  const now = runtime.clock.now().toISOString();
  const ciphertext = await runtime.encryption.encrypt(Buffer.from(secretText, 'utf8'), secretContext(draft));
  const connection: ConnectionRecord = {
    ...draft,
    secret_ciphertext: Buffer.from(ciphertext).toString('base64'),
    created_at: now,
  };
  const calendars = await (await factory(connection, secretText)).listCalendars();
  await runtime.registry.putConnection(connection);
  for (const calendar of calendars) {
    const record: CalendarRecord = {
      calendar_id: `${calendarPrefix(connection)}${calendar.native_id}`,
      provider: draft.provider,
      connection_id: draft.connection_id,
      native_id: calendar.native_id,
      name: calendar.name,
      label: flags.label ?? null,
      ...(calendar.description ? { description: calendar.description } : {}),
      ...(calendar.time_zone ? { time_zone: calendar.time_zone } : {}),
      primary: calendar.primary,
      access_role: calendar.access_role,
      created_at: now,
    };
    await runtime.registry.putCalendar(record);
    const writable = calendar.access_role === 'owner' || calendar.access_role === 'writer';
    if (flags.key)
      await runtime.access.setGrant(
        flags.key,
        calendarResource(record.calendar_id),
        writable ? 'write' : 'read',
      );
    out.line(`  ${record.calendar_id}  ${record.name}${record.primary ? ' (primary)' : ''}`);
  }
  out.line(
    flags.key
      ? `Connected ${draft.account}: ${calendars.length} calendar(s), granted to key ${flags.key} only.`
      : `Connected ${draft.account}: ${calendars.length} calendar(s), granted to no key yet — use \`meridian grants set\`.`,
  );
}

/** `meridian connect google|outlook|caldav`. */
export async function connectCommand(
  runtime: EmbeddedRuntime,
  args: string[],
  flags: ConnectFlags,
  out: CliOutput,
) {
  const [provider] = args;
  // Fail before the browser dance or any write if the key does not exist.
  if (flags.key) await runtime.access.describeKey(flags.key);
  const connectionId = runtime.calendars.deps.random.uuid().slice(0, 8);
  if (provider === 'google') {
    const settings = runtime.environment.google;
    if (!settings) {
      throw new UsageError(
        'Set MERIDIAN_GOOGLE_CLIENT_ID and MERIDIAN_GOOGLE_CLIENT_SECRET (an OAuth "Desktop app" client) first.',
      );
    }
    const result = await authorizeWithLoopback({
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      openUrl: (url) => out.error(`Open this URL in a browser to connect Google Calendar:\n\n  ${url}\n`),
      endpoints: {
        ...(settings.authorizationUrl ? { authorizationUrl: settings.authorizationUrl } : {}),
        ...(settings.tokenUrl ? { tokenUrl: settings.tokenUrl } : {}),
      },
    });
    return register(
      runtime,
      {
        connection_id: connectionId,
        provider: 'google',
        connection_kind: 'oauth',
        account: result.email ?? 'google account',
        label: flags.label ?? null,
      },
      { refresh_token: result.refresh_token },
      flags,
      out,
    );
  }
  if (provider === 'outlook') {
    const settings = runtime.environment.outlook;
    if (!settings) {
      throw new UsageError(
        'Set MERIDIAN_OUTLOOK_CLIENT_ID to the Application (client) ID of a Microsoft Entra app registration first (see the README: public client flows on, delegated Calendars.ReadWrite and offline_access).',
      );
    }
    // Loaded here: msal-node is needed by this command only.
    const { signInWithBrowser, signInWithDeviceCode } = await import(
      '../../adapters/outlook/outlook-tokens.js'
    );
    const result = flags.browser
      ? await signInWithBrowser(settings, (url) =>
          out.error(`Open this URL in a browser to connect Outlook:\n\n  ${url}\n`),
        )
      : await signInWithDeviceCode(settings, (prompt) =>
          out.error(`To connect Outlook: ${prompt.message}\n`),
        );
    return register(
      runtime,
      {
        connection_id: connectionId,
        provider: 'outlook',
        connection_kind: 'oauth',
        account: result.email ?? 'microsoft account',
        label: flags.label ?? null,
      },
      { refresh_token: result.refresh_token },
      flags,
      out,
    );
  }
  if (provider === 'caldav') {
    if (!flags.url || !flags.username)
      throw new UsageError('Usage: meridian connect caldav --url URL --username USER [--key KEY_ID]');
    const url = new URL(flags.url);
    if (url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      throw new UsageError(
        'Use an https:// CalDAV URL: the password would otherwise cross the network in clear text.',
      );
    }
    const password =
      runtime.environment.caldavPassword ?? (await promptHidden(`Password for ${flags.username}: `));
    return register(
      runtime,
      {
        connection_id: connectionId,
        provider: 'caldav',
        connection_kind: 'password',
        account: flags.username,
        label: flags.label ?? null,
        server_url: url.toString(),
      },
      { password },
      flags,
      out,
    );
  }
  throw new UsageError(
    'Usage: meridian connect google [--key KEY_ID] | connect outlook [--key KEY_ID] [--browser] | connect caldav --url URL --username USER [--key KEY_ID]',
  );
}
