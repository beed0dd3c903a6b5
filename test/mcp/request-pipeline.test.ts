import { type CallToolResult, Client, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../lambdas/core/errors.js';
import { createMcpServer } from '../../lambdas/mcp/create-mcp-server.js';
import type { McpHttpDeps } from '../../lambdas/mcp/deps.js';
import { routeHttpRequest } from '../../lambdas/mcp/http/route-http-request.js';
import { admitConnection } from '../../lambdas/mcp/request-pipeline.js';
import type { ToolCall, ToolCallHook, ToolCallOutcome } from '../../lambdas/mcp/tool-call-hooks.js';
import { connectHttpClient, errorOf } from '../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const NOW = { name: 'get_temporal_context', arguments: { timezone: 'Asia/Kathmandu' } };

/** A hook that records every call and outcome it is shown. */
function recordingHook() {
  const seen: { call: ToolCall; outcome: ToolCallOutcome }[] = [];
  const hook: ToolCallHook = { afterCall: (call, outcome) => void seen.push({ call, outcome }) };
  return { hook, seen };
}

/** The SDK's real Client over Streamable HTTP, into routeHttpRequest without a socket. */
function httpClient(deps: McpHttpDeps, token: string, query = '') {
  return connectHttpClient(
    `http://localhost/mcp${query}`,
    (input, init) => routeHttpRequest(new Request(input, init), deps),
    { authorization: `Bearer ${token}` },
  );
}

/** A client on the stdio path: the local owner admitted by the pipeline, over an in-memory pair. */
async function localOwnerClient(deps: McpHttpDeps) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(deps, await admitConnection(deps, { kind: 'local-owner' })).connect(serverSide);
  const client = new Client({ name: 'meridian-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('the request pipeline', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });

  afterAll(async () => {
    await runtime.close();
  });

  describe('tool-call hooks', () => {
    it('shows each call over HTTP to every hook, with the caller and how it ended', async () => {
      const first = recordingHook();
      const second = recordingHook();
      const key = await runtime.newKey('hooked');
      const client = await httpClient({ ...runtime, hooks: [first.hook, second.hook] }, key.token);

      await client.callTool(NOW);
      await client.callTool({ name: 'convert_timezone', arguments: { datetime: 'soon' } });
      await client.close();

      expect(first.seen.map(({ call }) => call.tool)).toEqual(['get_temporal_context', 'convert_timezone']);
      expect(first.seen[0]!.call).toMatchObject({
        principal: { kind: 'api-key', keyId: key.keyId },
        arguments: NOW.arguments,
      });
      expect(first.seen.map(({ outcome }) => 'result' in outcome && outcome.result.isError)).toEqual([
        undefined,
        true,
      ]);
      expect(second.seen).toHaveLength(2);
    });

    it('lets a hook refuse a call: the client gets its code and message, and the tool does not run', async () => {
      const recorder = recordingHook();
      const refuseCalendars: ToolCallHook = {
        beforeCall: ({ tool }) => {
          if (tool === 'create_calendar')
            throw new DomainError('FORBIDDEN', 'Too many calendars created today. Retry tomorrow.');
        },
      };
      const key = await runtime.newKey('limited');
      const client = await httpClient({ ...runtime, hooks: [refuseCalendars, recorder.hook] }, key.token);

      const refused = (await client.callTool({
        name: 'create_calendar',
        arguments: { summary: 'Refused' },
      })) as CallToolResult;
      const allowed = (await client.callTool(NOW)) as CallToolResult;
      await client.close();

      expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN', message: /Retry tomorrow/ });
      expect(allowed.isError).toBeUndefined();
      const calendars = await runtime.calendars.listCalendars({
        kind: 'api-key',
        keyId: key.keyId,
        label: 'limited',
      });
      expect(calendars).toEqual([]);
      expect(recorder.seen.map(({ call }) => call.tool)).toEqual(['create_calendar', 'get_temporal_context']);
    });

    it('answers -32603 when a hook cannot decide, and does not run the tool', async () => {
      const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
      const broken: ToolCallHook = {
        beforeCall: () => {
          throw new Error('rate-limit table unreachable');
        },
      };
      const key = await runtime.newKey('broken hook');
      const client = await httpClient({ ...runtime, logger, hooks: [broken] }, key.token);

      const call = client.callTool({ name: 'create_calendar', arguments: { summary: 'Never' } });

      await expect(call).rejects.toMatchObject({ code: ProtocolErrorCode.InternalError });
      await expect(call).rejects.not.toThrow(/unreachable/);
      expect(logger.error).toHaveBeenCalledWith(
        'a tool-call hook failed before the call',
        expect.objectContaining({ tool: 'create_calendar' }),
      );
      await client.close();
    });

    it('keeps the result when a hook fails after the call, and logs it', async () => {
      const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
      const failingAudit: ToolCallHook = {
        afterCall: () => {
          throw new Error('audit bucket unreachable');
        },
      };
      const key = await runtime.newKey('audit down');
      const client = await httpClient({ ...runtime, logger, hooks: [failingAudit] }, key.token);

      const result = (await client.callTool(NOW)) as CallToolResult;
      await client.close();

      expect(result.structuredContent).toMatchObject({ utc_offset: '+05:45' });
      expect(logger.error).toHaveBeenCalledWith(
        'a tool-call hook failed after the call',
        expect.objectContaining({ tool: 'get_temporal_context' }),
      );
    });

    it('never shows a hook a call the connection’s toolsets refuse', async () => {
      const recorder = recordingHook();
      const key = await runtime.newKey('time only');
      const client = await httpClient({ ...runtime, hooks: [recorder.hook] }, key.token, '?toolsets=time');

      const call = client.callTool({ name: 'list_calendars', arguments: {} });

      await expect(call).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
      expect(recorder.seen).toEqual([]);
      await client.close();
    });

    it('runs the same hooks on the stdio path, where the caller is the local owner', async () => {
      const recorder = recordingHook();
      const client = await localOwnerClient({ ...runtime, hooks: [recorder.hook] });

      await client.callTool(NOW);
      await client.close();

      expect(recorder.seen.map(({ call }) => call)).toEqual([
        {
          tool: 'get_temporal_context',
          principal: { kind: 'local-owner' },
          arguments: NOW.arguments,
          // The tool's hints ride along: the audit hook records only calls that may write.
          annotations: expect.objectContaining({ readOnlyHint: true }),
        },
      ]);
    });
  });

  describe('admission on the stdio path', () => {
    it('enables the command’s --toolsets for the local owner', async () => {
      const client = await localOwnerClient({ ...runtime, defaultToolsets: ['time'] });

      const names = (await client.listTools()).tools.map((tool) => tool.name);
      await client.close();

      expect(names).toContain('get_temporal_context');
      expect(names).not.toContain('list_calendars');
    });
  });
});
