/**
 * A request's W3C trace context (`traceparent`/`tracestate` in its `_meta`, MCP 2026-07-28)
 * is in every log line the request writes, on each transport: `meridian serve`'s HTTP path, the
 * Lambda handler, and stdio. The lines are read as written, from the process's stdout/stderr.
 */
import { PassThrough } from 'node:stream';
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Client } from '@modelcontextprotocol/client';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import type { Logger } from '../../../lambdas/core/ports/index.js';
import { fromPowertools } from '../../../lambdas/handlers/powertools-logger.js';
import { createMcpServer } from '../../../lambdas/mcp/create-mcp-server.js';
import { routeHttpRequest } from '../../../lambdas/mcp/http/route-http-request.js';
import { toolCatalogue } from '../../../lambdas/mcp/tool-catalogue.js';
import { defineTool, PURE_COMPUTATION } from '../../../lambdas/mcp/tool-definition.js';
import { traceScopedServer } from '../../../lambdas/mcp/trace/trace-scoped-server.js';
import { startHttpServer } from '../../../lambdas/runtime/node-http-server.js';
import { createStderrLogger } from '../../../lambdas/runtime/stderr-logger.js';
import { type LoadedLambdaHandler, loadLambdaHandler } from '../../handlers/lambda-target.js';
import { captureEmfLines } from '../../support/emf-lines.js';
import { lambdaFetch } from '../../support/lambda-fetch.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const OTHER_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const OTHER_TRACEPARENT = `00-${OTHER_TRACE_ID}-b7ad6b7169203331-00`;
const TRACESTATE = 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE';
// Well-formed JSON, but not a traceparent: a caller trying to write into the server's logs.
const MALFORMED = '00-NOT-A-TRACE\n{"level":"ERROR","message":"forged"}';

type LogLine = Record<string, unknown>;

/** Every JSON line written to stdout and stderr until restored (passed on as written). */
function captureLogLines(): { lines: LogLine[]; text: () => string; restore(): void } {
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  const lines: LogLine[] = [];
  let raw = '';
  streams.forEach((stream, index) => {
    const original = originals[index]!;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      raw += String(chunk);
      for (const text of String(chunk).split('\n')) {
        if (!text.startsWith('{')) continue;
        try {
          lines.push(JSON.parse(text) as LogLine);
        } catch {
          // not a log line of ours
        }
      }
      return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    }) as typeof stream.write;
  });
  return {
    lines,
    text: () => raw,
    restore: () =>
      streams.forEach((stream, index) => {
        stream.write = originals[index]!;
      }),
  };
}

/**
 * A tool that fails as an outage does, after writing a line through the process's logger — a
 * part built once per process, not per request — so a request writes two lines: this one and
 * the pipeline's "tool failed".
 */
function failingTool(processLogger: () => Logger) {
  return defineTool({
    name: 'fail_loudly',
    title: 'Fail loudly',
    description: 'Logs a warning, then fails the way a bug or an outage does.',
    input: z.object({}),
    output: z.object({}),
    annotations: PURE_COMPUTATION,
    needs: 'time',
    run: () => {
      processLogger().warn('about to fail');
      throw new Error('connect ECONNREFUSED');
    },
  });
}

/** The lines a call wrote: the tool's own warning and the pipeline's error. */
function callLines(lines: readonly LogLine[], from: number): LogLine[] {
  return lines
    .slice(from)
    .filter((line) => line.message === 'about to fail' || line.message === 'tool failed');
}

describe('trace context in log lines', { timeout: 60_000 }, () => {
  let runtime: TestRuntime;
  let capture: ReturnType<typeof captureLogLines>;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    capture = captureLogLines();
  });

  afterAll(async () => {
    capture?.restore();
    await runtime?.close();
  });

  describe('over HTTP (meridian serve, logging through the Lambda functions’ Powertools adapter)', () => {
    let client: Client;
    let closeServer: () => Promise<void>;

    beforeAll(async () => {
      const logger = fromPowertools(new PowertoolsLogger({ serviceName: 'meridian-test', logLevel: 'INFO' }));
      const deps = { ...runtime, logger, tools: toolCatalogue({ test: [failingTool(() => logger)] }) };
      const server = await startHttpServer({
        host: '127.0.0.1',
        port: 0,
        handle: (request) => routeHttpRequest(request, deps),
        logger,
      });
      closeServer = () => server.close();
      const { token } = await runtime.newKey('trace');
      client = await connectHttpClient(`${server.url}/mcp`, undefined, { authorization: `Bearer ${token}` });
    });

    afterAll(async () => {
      await client?.close();
      await closeServer?.();
    });

    it('puts traceparent, trace_id and tracestate in every line the request writes', async () => {
      const from = capture.lines.length;

      await expect(
        client.callTool({
          name: 'fail_loudly',
          arguments: {},
          _meta: { traceparent: TRACEPARENT, tracestate: TRACESTATE },
        }),
      ).rejects.toMatchObject({ code: -32603 });

      const lines = callLines(capture.lines, from);
      expect(lines.map((line) => line.message)).toEqual(['about to fail', 'tool failed']);
      for (const line of lines)
        expect(line).toMatchObject({ traceparent: TRACEPARENT, trace_id: TRACE_ID, tracestate: TRACESTATE });
    });

    it('writes no trace keys for a request without one, or with a malformed traceparent, and never echoes it', async () => {
      const from = capture.lines.length;
      const textFrom = capture.text().length;

      await expect(client.callTool({ name: 'fail_loudly', arguments: {} })).rejects.toThrow();
      await expect(
        client.callTool({
          name: 'fail_loudly',
          arguments: {},
          _meta: { traceparent: MALFORMED, tracestate: TRACESTATE },
        }),
      ).rejects.toThrow();

      const lines = callLines(capture.lines, from);
      expect(lines).toHaveLength(4);
      for (const line of lines) {
        expect(line).not.toHaveProperty('traceparent');
        expect(line).not.toHaveProperty('trace_id');
        expect(line).not.toHaveProperty('tracestate');
      }
      expect(capture.text().slice(textFrom)).not.toContain('NOT-A-TRACE');
      expect(capture.lines.slice(from).some((line) => line.message === 'forged')).toBe(false);
    });

    it('keeps two concurrent requests’ traces apart', async () => {
      const from = capture.lines.length;

      await Promise.allSettled([
        client.callTool({ name: 'fail_loudly', arguments: {}, _meta: { traceparent: TRACEPARENT } }),
        client.callTool({ name: 'fail_loudly', arguments: {}, _meta: { traceparent: OTHER_TRACEPARENT } }),
      ]);

      const lines = callLines(capture.lines, from);
      expect(lines).toHaveLength(4);
      expect(lines.filter((line) => line.trace_id === TRACE_ID)).toHaveLength(2);
      expect(lines.filter((line) => line.trace_id === OTHER_TRACE_ID)).toHaveLength(2);
    });
  });

  describe('over stdio (meridian stdio’s serving, logging to stderr)', () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const answers: LogLine[] = [];
    let connection: { close(): Promise<void> };

    beforeAll(() => {
      const logger = createStderrLogger('meridian-test');
      const deps = { ...runtime, logger, tools: toolCatalogue({ test: [failingTool(() => logger)] }) };
      connection = serveStdio(() => traceScopedServer(createMcpServer(deps, { principal: LOCAL_OWNER })), {
        transport: new StdioServerTransport(stdin, stdout),
      });
      let buffered = '';
      stdout.on('data', (chunk) => {
        buffered += String(chunk);
        const complete = buffered.split('\n');
        buffered = complete.pop() ?? '';
        for (const line of complete) if (line) answers.push(JSON.parse(line) as LogLine);
      });
    });

    afterAll(async () => {
      await connection?.close();
    });

    /** A 2026-07-28 tools/call of fail_loudly, as a client writes it on stdin. */
    function call(id: number, trace: Record<string, string>): string {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        ...trace,
      };
      const request = {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'fail_loudly', arguments: {}, _meta: meta },
      };
      return `${JSON.stringify(request)}\n`;
    }

    async function answered(ids: number[]): Promise<void> {
      while (!ids.every((id) => answers.some((answer) => answer.id === id)))
        await new Promise((resolve) => setTimeout(resolve, 10));
    }

    it('gives each request of a burst its own trace context, and none to one with a malformed traceparent', async () => {
      const from = capture.lines.length;
      const textFrom = capture.text().length;

      // One write, three requests: the stdio entry queues them and feeds them from one loop.
      stdin.write(
        call(1, { traceparent: TRACEPARENT, tracestate: TRACESTATE }) +
          call(2, { traceparent: MALFORMED }) +
          call(3, { traceparent: OTHER_TRACEPARENT }),
      );
      await answered([1, 2, 3]);

      const lines = callLines(capture.lines, from);
      expect(lines).toHaveLength(6);
      expect(lines.filter((line) => line.trace_id === TRACE_ID)).toEqual([
        expect.objectContaining({
          message: 'about to fail',
          traceparent: TRACEPARENT,
          tracestate: TRACESTATE,
        }),
        expect.objectContaining({ message: 'tool failed', traceparent: TRACEPARENT, tracestate: TRACESTATE }),
      ]);
      expect(lines.filter((line) => line.trace_id === OTHER_TRACE_ID)).toHaveLength(2);
      expect(lines.filter((line) => line.trace_id === undefined)).toHaveLength(2);
      expect(capture.text().slice(textFrom)).not.toContain('NOT-A-TRACE');
    });
  });

  describe('through the MCP Lambda handler (Powertools)', () => {
    let lambda: LoadedLambdaHandler;
    let client: Client;
    const emf = { restore: () => undefined } as ReturnType<typeof captureEmfLines>;

    beforeAll(async () => {
      lambda = await loadLambdaHandler(() => import('../../../lambdas/handlers/mcp-http.js'));
      const { token } = await lambda.runtime.newKey('trace');
      client = await connectHttpClient(
        'https://abc123.execute-api.eu-west-1.amazonaws.com/mcp',
        lambdaFetch(lambda.handler),
        { authorization: `Bearer ${token}` },
      );
    });

    afterEach(() => emf.restore());

    afterAll(async () => {
      await client?.close();
      await lambda?.close();
    });

    it('writes the trace context into the metric lines of the call, as metadata, not a dimension', async () => {
      const { lines, restore } = captureEmfLines();
      emf.restore = restore;

      await client.callTool({
        name: 'get_temporal_context',
        arguments: {},
        _meta: { traceparent: TRACEPARENT, tracestate: TRACESTATE },
      });
      await client.callTool({
        name: 'get_temporal_context',
        arguments: {},
        _meta: { traceparent: MALFORMED },
      });

      expect(lines.length).toBeGreaterThanOrEqual(4);
      const [traced, untraced] = [lines.slice(0, lines.length / 2), lines.slice(lines.length / 2)];
      for (const line of traced) {
        expect(line).toMatchObject({ traceparent: TRACEPARENT, trace_id: TRACE_ID, tracestate: TRACESTATE });
        expect(line._aws.CloudWatchMetrics[0]?.Dimensions.flat()).not.toContain('trace_id');
      }
      for (const line of untraced) expect(line).not.toHaveProperty('trace_id');
      expect(JSON.stringify(lines)).not.toContain('NOT-A-TRACE');
    });
  });
});
