/**
 * The `meridian` CLI: composition for the embedded runtime. See USAGE below.
 */
import { delimiter } from 'node:path';
import { parseArgs } from 'node:util';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { isDomainError } from '../lambdas/core/errors.js';
import { DEFAULT_CALL_LIMITS } from '../lambdas/mcp/call-limits.js';
import { computeOn } from '../lambdas/mcp/computation-turns.js';
import { createMcpServer } from '../lambdas/mcp/create-mcp-server.js';
import type { McpHttpDeps } from '../lambdas/mcp/deps.js';
import { isLoopbackHost } from '../lambdas/mcp/http/origin-policy.js';
import { MCP_PATH, routeHttpRequest } from '../lambdas/mcp/http/route-http-request.js';
import { admitConnection } from '../lambdas/mcp/request-pipeline.js';
import { TOOLSET_NAMES } from '../lambdas/mcp/tools/index.js';
import { parseToolsets, type ToolsetSelection } from '../lambdas/mcp/toolsets.js';
import { traceScopedServer } from '../lambdas/mcp/trace/trace-scoped-server.js';
import { createAwsAdminRuntime } from '../lambdas/runtime/aws.js';
import {
  type CliOutput,
  calendarsCommand,
  grantsCommand,
  keysCommand,
  UsageError,
} from '../lambdas/runtime/cli/access-commands.js';
import { auditCommand } from '../lambdas/runtime/cli/audit-commands.js';
import { auditedCommand } from '../lambdas/runtime/cli/audited-command.js';
import { connectCommand } from '../lambdas/runtime/cli/connect-commands.js';
import { memoryCommand, memorySteps, stepBar, stepLines } from '../lambdas/runtime/cli/memory-commands.js';
import { clientsCommand, sessionsCommand } from '../lambdas/runtime/cli/oauth-admin-commands.js';
import { projectsCommand } from '../lambdas/runtime/cli/project-commands.js';
import { revokeIdAsPositional } from '../lambdas/runtime/cli/revoke-id-argument.js';
import { rulesCommand, timesheetCommand } from '../lambdas/runtime/cli/rules-commands.js';
import { smokeCommand } from '../lambdas/runtime/cli/smoke-command.js';
import {
  isInteractive,
  progressBars,
  progressLines,
  syncCommand,
} from '../lambdas/runtime/cli/sync-command.js';
import { usersCommand } from '../lambdas/runtime/cli/users-commands.js';
import { startComputationThread } from '../lambdas/runtime/computation-thread.js';
import { loadEmbeddedConfig } from '../lambdas/runtime/config.js';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../lambdas/runtime/embedded.js';
import { type Environment, processEnvironment } from '../lambdas/runtime/environment.js';
import { startIdleCompressionTimer } from '../lambdas/runtime/memory-compression-run.js';
import { startHttpServer } from '../lambdas/runtime/node-http-server.js';
import { stopOnShutdown } from '../lambdas/runtime/shutdown-signals.js';
import { createStderrLogger } from '../lambdas/runtime/stderr-logger.js';
import { syncAndLog } from '../lambdas/runtime/sync-run.js';
import { startSyncTimer } from '../lambdas/runtime/sync-timer.js';
import { VERSION } from '../lambdas/runtime/version.js';

const USAGE = `meridian ${VERSION} — a remote MCP server for time, calendars, timesheets and project memory

Usage:
  meridian serve [--port N] [--host H] [--allowed-origins O,…] [--scan-folder DIR]…
                                            Streamable HTTP: POST http://HOST:PORT${MCP_PATH} (Bearer API key), GET /health
  meridian stdio                            MCP over stdin/stdout for desktop clients (acts as the local owner)
  meridian keys create --label NAME [--toolsets LIST]   create an API key (printed once)
  meridian keys list | keys revoke KEY_ID
  meridian keys toolsets KEY_ID LIST|all    the toolsets the key's connections get when they choose none
  meridian grants set KEY_ID RESOURCE none|read|write   RESOURCE: a calendar id or project/<id>
  meridian grants list KEY_ID
  meridian keys limits KEY_ID requests=RATE,expensive=RATE|default   a key's own budgets (RATE: 120/min, 600/60s, off)
  meridian audit list|verify|export [--day YYYY-MM-DD] [--limit N]   the audit log of every change
  meridian calendars list
  meridian users add NAME | users list | users remove NAME   people who sign in (OAuth) to serve; password on stdin
  meridian users add NAME --external        a person who signs in at the organization's issuer
                                            (MERIDIAN_SIGN_IN_ISSUER), named by their email or ISSUER_HOST:SUB
  meridian users grant NAME RESOURCE none|read|write | users grants NAME   what a person may consent to share
  meridian users admin NAME on|off          who may use serve's admin page, /oauth/admin
  meridian clients list | clients revoke CLIENT_ID   MCP clients of the sign-in; revoke ends all their sessions
  meridian sessions list [--user NAME] | sessions revoke SESSION_ID   people's consents and refresh tokens
  meridian projects list [--all] | projects create --name NAME [--client C] [--color #rrggbb]
                            [--billable yes|no] [--rounding 15:up|6:nearest]
  meridian projects update PROJECT_ID [--name …] [--archived yes|no] [--clear client,color,rounding] …
  meridian projects archive PROJECT_ID
  meridian rules list                       every rule, with what it matched in the last 30 days
  meridian rules test "QUERY" [--start T] [--end T] [--limit N]   what a rule query matches (preview)
  meridian timesheet [--week 2026-W48 | --start T --end T] [--group-by project|day|week|calendar] [--csv]
  meridian sync [--calendar ID]… [--full]   copy connected calendars into the shadow calendar, a progress
                                            bar per calendar; exits 1 if a calendar failed
  meridian memory snapshot PROJECT_ID [--description D] | memory snapshots PROJECT_ID
  meridian memory restore PROJECT_ID SNAPSHOT_ID       verified first; the replaced memory is kept as a snapshot
  meridian memory sync push|pull PROJECT_ID [--force]  through MERIDIAN_MEMORY_SYNC_BUCKET, encrypted before upload
  meridian connect google [--key KEY_ID] [--label L]     OAuth (loopback); needs MERIDIAN_GOOGLE_CLIENT_ID/_SECRET
  meridian connect outlook [--key KEY_ID] [--label L] [--browser]   Microsoft sign-in (device code, or
                                                        --browser on this machine); needs MERIDIAN_OUTLOOK_CLIENT_ID,
                                                        an Entra app with Calendars.ReadWrite and offline_access only
  meridian connect caldav --url URL --username U [--key KEY_ID] [--label L]   password from MERIDIAN_CALDAV_PASSWORD or a prompt
  meridian smoke URL [--api-key K]          after a deploy: health, metadata, a tool of each toolset, a booking
                                            and its release, a snapshot, each PASS/FAIL with its time; exits 1 on a failure

projects, rules and timesheet run on the data dir as the local owner.
Add --aws to keys, grants, users, calendars, clients, sessions and connect to administer a deployment instead: they then use
your AWS credentials and MERIDIAN_TABLE_NAME / MERIDIAN_DATA_KEY_ARN (the data stack's outputs).

Toolsets (${TOOLSET_NAMES.join(', ')}): a connection enables a comma-separated LIST with
${MCP_PATH}?toolsets=LIST, else its key's default, else serve's --toolsets LIST; stdio takes --toolsets LIST.
All are enabled when nothing is chosen.

Every command takes --data-dir DIR (MERIDIAN_DATA_DIR, default ./.meridian) and --timezone ZONE
(MERIDIAN_TIMEZONE; without it tools use UTC and report timezone_configured: false).
Defaults for serve: 127.0.0.1:8787 (HTTP_HOST, HTTP_PORT); it syncs connected calendars every 5 minutes
(MERIDIAN_SYNC_INTERVAL_MINUTES, 0 turns it off). serve and stdio compress memory contexts idle for
30 minutes every 5 minutes (MERIDIAN_MEMORY_COMPRESSION_INTERVAL_MINUTES, 0 turns it off). Browsers may call it only from the origins in
--allowed-origins (MERIDIAN_ALLOWED_ORIGINS, e.g. https://app.example.com) and, on loopback, from
localhost; on loopback it also refuses a Host that is not localhost (DNS rebinding).
serve is also an OAuth authorization server (issuer: its URL, or MERIDIAN_PUBLIC_URL behind a proxy): MCP
clients that follow MCP authorization sign a person in and ask their consent; API keys keep working beside it.
serve reads project folders on this machine for API keys only inside each --scan-folder DIR
(MERIDIAN_SCAN_FOLDERS, separated by ${delimiter}); stdio, as the local owner, reads any.
`;

const { positionals, values } = parseArgs({
  args: revokeIdAsPositional(process.argv.slice(2)),
  allowPositionals: true,
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'allowed-origins': { type: 'string' },
    'scan-folder': { type: 'string', multiple: true },
    'data-dir': { type: 'string' },
    'api-key': { type: 'string' },
    timezone: { type: 'string' },
    label: { type: 'string' },
    key: { type: 'string' },
    url: { type: 'string' },
    username: { type: 'string' },
    user: { type: 'string' },
    aws: { type: 'boolean' },
    browser: { type: 'boolean' },
    external: { type: 'boolean' },
    calendar: { type: 'string', multiple: true },
    full: { type: 'boolean' },
    description: { type: 'string' },
    force: { type: 'boolean' },
    toolsets: { type: 'string' },
    name: { type: 'string' },
    client: { type: 'string' },
    color: { type: 'string' },
    billable: { type: 'string' },
    rounding: { type: 'string' },
    archived: { type: 'string' },
    clear: { type: 'string' },
    all: { type: 'boolean' },
    start: { type: 'string' },
    end: { type: 'string' },
    limit: { type: 'string' },
    week: { type: 'string' },
    day: { type: 'string' },
    'group-by': { type: 'string' },
    csv: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  },
});

const out: CliOutput = { line: (text) => console.log(text), error: (text) => console.error(text) };

/** `--toolsets LIST` of serve and stdio; a bad name stops the command with the known ones. */
function toolsetsFlag(): ToolsetSelection {
  return values.toolsets === undefined
    ? undefined
    : parseToolsets(values.toolsets, TOOLSET_NAMES, '--toolsets');
}

/**
 * The embedded runtime's configuration. The listed scan folders are serve's alone: every other
 * command acts as the local owner, who reads any folder, and should not stop on a listed one.
 */
function config() {
  return { ...serveConfig(), scanFolders: [] };
}

let parsedEnvironment: Environment | undefined;

/** The environment, parsed once (environment.ts); a bad variable stops the command, named. */
function environment(): Environment {
  parsedEnvironment ??= processEnvironment();
  return parsedEnvironment;
}

function serveConfig() {
  return loadEmbeddedConfig(environment(), {
    port: values.port,
    host: values.host,
    dataDir: values['data-dir'],
    timezone: values.timezone,
    allowedOrigins: values['allowed-origins'],
    scanFolders: values['scan-folder'],
  });
}

async function serve(): Promise<void> {
  const settings = serveConfig();
  // Read before anything starts: a bad value stops `serve` with a message, not later in the log.
  const { syncIntervalMs: syncEvery, memoryCompressionIntervalMs: compressEvery } = environment();
  const callLimits = { ...DEFAULT_CALL_LIMITS, ...environment().callLimits };
  const defaultToolsets = toolsetsFlag();
  const runtime = await createEmbeddedRuntime(settings, environment());
  // The tool listing (a JSON Schema per tool) is built once per process, and building it holds the
  // event loop for tens of milliseconds: built here, before the port opens, no request — /health
  // included — waits behind it.
  await runtime.tools.listing();
  const policy = { allowedOrigins: settings.allowedOrigins, loopback: isLoopbackHost(settings.host) };
  // OAuth sign-in beside API keys (lambdas/runtime/oauth): people added with `meridian users add`.
  // Loaded here, not at the top: the other commands do not need oidc-provider and Koa.
  const { prepareSignIn } = await import('../lambdas/runtime/oauth/serve-sign-in.js');
  const signIn = await prepareSignIn(runtime, settings.dataDir, policy);
  const server = await startHttpServer({
    host: settings.host,
    port: settings.port,
    handle: (request) =>
      routeHttpRequest(request, signIn.httpDeps({ ...runtime, defaultToolsets, callLimits }), policy),
    intercept: signIn.intercept,
    logger: runtime.logger,
  });
  signIn.attach(server.url);
  // The one line tools and scripts wait for; everything else goes to stderr.
  console.log(
    `Meridian ${VERSION} listening on ${server.url}${MCP_PATH} (data: ${settings.dataDir}, pid ${process.pid})`,
  );
  // The time tools' work runs on a thread of its own, so /health is never held behind it (ADR 0008).
  // Started once the port is open: loading the time core there takes about a second of CPU, which
  // would otherwise compete with the start on a small machine; a call sent meanwhile waits for it.
  const computations = startComputationThread(runtime.logger);
  computeOn(computations);
  const timer =
    syncEvery === undefined
      ? undefined
      : startSyncTimer({
          intervalMs: syncEvery,
          run: () => syncAndLog(runtime, runtime.logger),
          logger: runtime.logger,
        });
  const compression = startIdleCompressionTimer(idleSweepDeps(runtime), runtime.logger, compressEvery);
  stopOnShutdown(
    async () => {
      await timer?.stop();
      await compression?.stop();
      await server.close();
      await runtime.close();
      await computations.close();
    },
    {
      // Under `npm start` the server lives as long as npm does (lambdas/runtime/shutdown-signals.ts).
      watchParent: environment().startedByNpm,
      onReason: (reason) => console.error(`Meridian stopping: ${reason}`),
    },
  );
}

async function stdio(): Promise<void> {
  const { memoryCompressionIntervalMs: compressEvery } = environment();
  const callLimits = { ...DEFAULT_CALL_LIMITS, ...environment().callLimits };
  const defaultToolsets = toolsetsFlag();
  const runtime = await createEmbeddedRuntime(config(), environment());
  // The same pipeline as HTTP: the local owner is admitted with the --toolsets of the command.
  const deps = { ...runtime, defaultToolsets, callLimits };
  const context = { ...(await admitConnection(deps, { kind: 'local-owner' })), client: 'stdio' };
  // The SDK pins the era from the opening message (initialize → 2025, an enveloped request or
  // server/discover → 2026-07-28) and takes one server from the factory for the connection.
  // Each message runs in its own trace scope: log lines carry the trace context its `_meta` sent.
  const connection = serveStdio(() => traceScopedServer(createMcpServer(deps, context)));
  const compression = startIdleCompressionTimer(idleSweepDeps(runtime), runtime.logger, compressEvery);
  // The client closing stdin ends the session; the embedded store would otherwise keep us alive.
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await compression?.stop();
    await connection.close();
    await runtime.close();
    process.exit(0);
  };
  process.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** What the idle-compression sweep needs of the embedded runtime. */
function idleSweepDeps(runtime: EmbeddedRuntime) {
  return {
    store: runtime.store,
    memory: runtime.memory.memory,
    blobs: runtime.memoryBlobs,
    clock: runtime.clock,
  };
}

/** Runs a one-shot command against the data dir (or, with --aws, the deployed table), then releases it. */
async function once(command: (runtime: EmbeddedRuntime) => Promise<void>): Promise<void> {
  const runtime = values.aws
    ? await createAwsAdminRuntime(environment(), createStderrLogger())
    : await createEmbeddedRuntime(config(), environment());
  try {
    await command(runtime);
  } finally {
    await runtime.close();
  }
}

/**
 * Runs a command against the data dir as the local owner, through the MCP tools: projects,
 * rules and timesheets live beside the calendars they classify, which --aws does not reach.
 */
async function local(command: (runtime: EmbeddedRuntime & McpHttpDeps) => Promise<void>): Promise<void> {
  if (values.aws)
    throw new UsageError(
      '--aws is for keys, grants, users, calendars, clients, sessions and connect; this command runs on the data dir.',
    );
  const runtime = await createEmbeddedRuntime(config(), environment());
  try {
    await command(runtime);
  } finally {
    await runtime.close();
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = positionals;
  if (values.version) return void console.log(VERSION);
  if (values.help || command === undefined || command === 'help') return void console.log(USAGE);
  switch (command) {
    case 'serve':
      return serve();
    case 'stdio':
      return stdio();
    case 'keys':
      return once((runtime) =>
        auditedCommand(runtime, positionals, () =>
          keysCommand(runtime, rest, { label: values.label, toolsets: values.toolsets }, out),
        ),
      );
    case 'grants':
      return once((runtime) => auditedCommand(runtime, positionals, () => grantsCommand(runtime, rest, out)));
    case 'audit':
      return once((runtime) => auditCommand(runtime, rest, { day: values.day, limit: values.limit }, out));
    case 'users':
      // With --aws: a deployment's people, in its table (an administrator's shell).
      return once((runtime) =>
        auditedCommand(runtime, positionals, () =>
          usersCommand(runtime, rest, out, undefined, { external: values.external }),
        ),
      );
    case 'calendars':
      return once((runtime) => calendarsCommand(runtime, rest, out));
    case 'clients':
      return once((runtime) =>
        auditedCommand(runtime, positionals, () => clientsCommand(runtime, rest, out)),
      );
    case 'sessions':
      return once((runtime) =>
        auditedCommand(runtime, positionals, () =>
          sessionsCommand(runtime, rest, { user: values.user }, out),
        ),
      );
    case 'projects':
      return local((runtime) => projectsCommand(runtime, rest, values, out));
    case 'rules':
      return local((runtime) => rulesCommand(runtime, rest, values, out));
    case 'timesheet':
      return local((runtime) => timesheetCommand(runtime, values, out));
    case 'sync':
      return once(async (runtime) => {
        const view = isInteractive(process.stderr, environment())
          ? progressBars(process.stderr)
          : progressLines(out);
        const summary = await syncCommand(
          runtime,
          { calendar: values.calendar, full: values.full },
          out,
          view,
        );
        if (summary.failed > 0) process.exitCode = 1;
      });
    case 'memory':
      return once(async (runtime) => {
        const steps = memorySteps(rest);
        const view = isInteractive(process.stderr, environment())
          ? stepBar(process.stderr, steps)
          : stepLines(out, steps);
        await memoryCommand(
          runtime,
          rest,
          { description: values.description, force: values.force },
          out,
          view,
        );
      });
    case 'smoke': {
      const [url, ...extra] = rest;
      if (url === undefined || extra.length > 0)
        throw new UsageError('Usage: meridian smoke URL [--api-key K]');
      const report = await smokeCommand({ url, apiKey: values['api-key'] }, out);
      if (!report.ok) process.exitCode = 1;
      return;
    }
    case 'connect':
      return once((runtime) =>
        connectCommand(
          runtime,
          rest,
          {
            key: values.key,
            label: values.label,
            url: values.url,
            username: values.username,
            browser: values.browser,
          },
          out,
        ),
      );
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

main().catch((error: unknown) => {
  // Mistakes the user can fix get their message, not a stack trace.
  const fixable = isDomainError(error) || error instanceof UsageError || error instanceof Error;
  console.error(`meridian: ${fixable ? (error as Error).message : String(error)}`);
  process.exit(2);
});
