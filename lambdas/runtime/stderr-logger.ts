import type { Logger } from '../core/ports/index.js';
import { traceLogKeys } from '../mcp/trace/trace-scope.js';

/**
 * JSON-lines logger on stderr for the embedded runtime. Never stdout: in `stdio` mode stdout
 * carries the MCP protocol, and one stray line would corrupt it. A line written while serving a
 * request that sent a trace context carries it (`traceparent`, `trace_id`, `tracestate`).
 */
export function createStderrLogger(service = 'meridian'): Logger {
  const write = (level: string, message: string, extra?: Record<string, unknown>) => {
    const entry = {
      level,
      service,
      timestamp: new Date().toISOString(),
      message,
      ...traceLogKeys(),
      ...serialise(extra),
    };
    process.stderr.write(`${JSON.stringify(entry)}\n`);
  };
  return {
    info: (message, extra) => write('INFO', message, extra),
    warn: (message, extra) => write('WARN', message, extra),
    error: (message, extra) => write('ERROR', message, extra),
  };
}

function serialise(extra: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!extra) return {};
  return Object.fromEntries(
    Object.entries(extra).map(([key, value]) => [
      key,
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
    ]),
  );
}
