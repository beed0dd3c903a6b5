/**
 * The `meridian` CLI: composition for the embedded runtime.
 *   meridian serve [--port N] [--host H] [--data-dir D] [--timezone Z]   stateless Streamable HTTP on /mcp
 *   meridian stdio [--data-dir D] [--timezone Z]                         MCP over stdin/stdout
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isDomainError } from '../lambdas/core/errors.js';
import { createMcpServer } from '../lambdas/mcp/create-mcp-server.js';
import { MCP_PATH, routeHttpRequest } from '../lambdas/mcp/http/route-http-request.js';
import { loadEmbeddedConfig } from '../lambdas/runtime/config.js';
import { createEmbeddedDeps } from '../lambdas/runtime/embedded.js';
import { startHttpServer } from '../lambdas/runtime/node-http-server.js';
import { VERSION } from '../lambdas/runtime/version.js';

const USAGE = `meridian ${VERSION} — a remote MCP server for time and calendars

Usage:
  meridian serve [--port N] [--host H] [--data-dir DIR] [--timezone ZONE]
      Stateless Streamable HTTP: POST http://HOST:PORT${MCP_PATH}, GET /health.
      Defaults: 127.0.0.1:8787 (HTTP_HOST, HTTP_PORT), data under ./.meridian (MERIDIAN_DATA_DIR).
  meridian stdio [--data-dir DIR] [--timezone ZONE]
      MCP over stdin/stdout, for desktop clients.

Environment: MERIDIAN_TIMEZONE sets the default IANA zone (else tools report timezone_configured: false).
`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    timezone: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  },
});

function configFromFlags() {
  return loadEmbeddedConfig(process.env, {
    port: values.port,
    host: values.host,
    dataDir: values['data-dir'],
    timezone: values.timezone,
  });
}

async function serve(): Promise<void> {
  const config = configFromFlags();
  const deps = await createEmbeddedDeps(config);
  const server = await startHttpServer({
    host: config.host,
    port: config.port,
    handle: (request) => routeHttpRequest(request, deps),
    logger: deps.logger,
  });
  // The one line tools and scripts wait for; everything else goes to stderr.
  console.log(`Meridian ${VERSION} listening on ${server.url}${MCP_PATH} (data: ${config.dataDir})`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function stdio(): Promise<void> {
  const deps = await createEmbeddedDeps(configFromFlags());
  await createMcpServer(deps).connect(new StdioServerTransport());
}

async function main(): Promise<void> {
  const [command] = positionals;
  if (values.version) return void console.log(VERSION);
  if (values.help || command === undefined || command === 'help') return void console.log(USAGE);
  if (command === 'serve') return serve();
  if (command === 'stdio') return stdio();
  console.error(`Unknown command "${command}".\n\n${USAGE}`);
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  // Configuration mistakes are the user's to fix: print the message, not a stack.
  const message = isDomainError(error) || error instanceof Error ? error.message : String(error);
  console.error(`meridian: ${message}`);
  process.exit(2);
});
