import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallToolResult, connectHttpClient, errorOf, type FetchLike } from '../support/mcp-client.js';
import type { RawResponse } from '../support/raw-http.js';
import { ERAS, useEveryCapability } from './protocol-eras.js';

export interface HttpTarget {
  /** Base URL without the /mcp path. */
  baseUrl: string;
  /** How requests reach the target: real network fetch, or a bridge into a Lambda handler. */
  fetch: FetchLike;
  /** Creates an API key in the target's store, optionally with default toolsets. */
  newKey(options?: { toolsets?: string[] }): Promise<{ token: string; keyId: string }>;
  revokeKey(keyId: string): Promise<void>;
  /** A browser origin the target is configured to allow. */
  allowedOrigin: string;
  /** Sends what fetch cannot (TRACE, TRACK) the way the target receives requests. */
  send(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string },
  ): Promise<RawResponse>;
  /** How many errors the target has logged since it started. */
  loggedErrors(): number;
  close(): Promise<void>;
}

export const TIME_TOOLS = [
  'get_temporal_context',
  'resolve_datetime',
  'convert_timezone',
  'compute_duration',
  'adjust_timestamp',
  'expand_rrule',
] as const;

const PURE = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A valid call for each time tool, and a field of its answer that proves it did the work. */
const VALID_CALLS: Record<
  (typeof TIME_TOOLS)[number],
  { args: Record<string, unknown>; expect: Record<string, unknown> }
> = {
  get_temporal_context: { args: { timezone: 'Asia/Kathmandu' }, expect: { utc_offset: '+05:45' } },
  resolve_datetime: {
    args: {
      expression: 'next Tuesday at 2pm',
      timezone: 'America/New_York',
      reference_time: '2026-02-20T15:30:00Z',
    },
    expect: { resolved_utc: '2026-02-24T19:00:00+00:00' },
  },
  convert_timezone: {
    args: { datetime: '2026-03-15T18:00:00Z', target_timezone: 'America/Los_Angeles' },
    expect: { local: '2026-03-15T11:00:00-07:00' },
  },
  compute_duration: {
    args: { start: '2026-03-16T13:00:00Z', end: '2026-03-16T21:30:00Z' },
    expect: { total_seconds: 30_600 },
  },
  adjust_timestamp: {
    args: { datetime: '2026-03-08T01:00:00-05:00', adjustment: '+1d', timezone: 'America/New_York' },
    expect: { adjusted_local: '2026-03-09T01:00:00-04:00' },
  },
  expand_rrule: {
    args: {
      rrule: 'FREQ=DAILY;COUNT=2',
      dtstart: '2026-03-07T09:00:00',
      timezone: 'America/New_York',
      format: 'json',
    },
    expect: { count: 2 },
  },
};

/**
 * One behavioural suite for every way Meridian speaks HTTP (node:http server, Lambda handler),
 * driven by the SDK's real Client wherever MCP is involved.
 */
export function describeMcpHttpTransport(label: string, start: () => Promise<HttpTarget>): void {
  describe(`MCP over HTTP: ${label}`, () => {
    let target: HttpTarget;
    let client: Client;
    let token: string;

    beforeAll(async () => {
      target = await start();
      ({ token } = await target.newKey());
      client = await connectHttpClient(`${target.baseUrl}/mcp`, target.fetch, {
        authorization: `Bearer ${token}`,
      });
    });

    afterAll(async () => {
      await client?.close();
      await target?.close();
    });

    it('lists the six time tools with their annotations, and output schemas for those that answer JSON', async () => {
      const { tools } = await client.listTools();
      const time = tools.filter((tool) => (TIME_TOOLS as readonly string[]).includes(tool.name));

      expect(time.map((tool) => tool.name).sort()).toEqual([...TIME_TOOLS].sort());
      for (const tool of time) {
        expect(tool.annotations).toMatchObject(PURE);
        // expand_rrule answers TOON text by default: no structuredContent, so no outputSchema.
        expect(tool.outputSchema?.type).toBe(tool.name === 'expand_rrule' ? undefined : 'object');
        expect(tool.description?.length).toBeGreaterThan(40);
      }
    });

    it.each(TIME_TOOLS)('answers %s with structured content', async (name) => {
      const { args, expect: expected } = VALID_CALLS[name];

      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;

      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject(expected);
    });

    it('encodes list results as TOON text only by default, and JSON with structuredContent on request', async () => {
      const args = VALID_CALLS.expand_rrule.args;
      const toon = (await client.callTool({
        name: 'expand_rrule',
        arguments: { ...args, format: 'toon' },
      })) as CallToolResult;
      const json = (await client.callTool({ name: 'expand_rrule', arguments: args })) as CallToolResult;

      const toonText = toon.content[0]?.type === 'text' ? toon.content[0].text : '';
      const jsonText = json.content[0]?.type === 'text' ? json.content[0].text : '';
      expect(() => JSON.parse(toonText)).toThrow();
      expect(JSON.parse(jsonText)).toEqual(json.structuredContent);
      expect(toon.structuredContent).toBeUndefined();
      expect(toonText).toContain('2026-03-08T09:00:00-04:00');
    });

    it.each([
      ['get_temporal_context', { timezone: 'America/New_Yrok' }, 'INVALID_TIMEZONE'],
      ['convert_timezone', { datetime: '2026-03-15 noon', target_timezone: 'UTC' }, 'INVALID_DATETIME'],
      ['adjust_timestamp', { datetime: '2026-03-15T18:00:00Z', adjustment: '2 hours' }, 'INVALID_DURATION'],
      [
        'expand_rrule',
        { rrule: 'FREQ=SOMETIMES', dtstart: '2026-03-07T09:00:00', timezone: 'UTC' },
        'INVALID_RRULE',
      ],
      ['resolve_datetime', { expression: 'when pigs fly', timezone: 'UTC' }, 'UNRECOGNIZED_EXPRESSION'],
      ['compute_duration', { start: '2026-03-16T13:00:00Z' }, 'INVALID_INPUT'],
    ] as const)('returns isError with a stable code from %s', async (name, args, code) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;

      expect(errorOf(result).code).toBe(code);
      expect(errorOf(result).message.length).toBeGreaterThan(20);
    });

    it('suggests the closest zone names for a typo', async () => {
      const result = (await client.callTool({
        name: 'get_temporal_context',
        arguments: { timezone: 'Europe/Londn' },
      })) as CallToolResult;

      expect(errorOf(result).suggestions).toContain('Europe/London');
    });

    it('serves the timesheet resources and prompts, loading the rules slice on first use', async () => {
      const [syntax] = (await client.readResource({ uri: 'timesheet://docs/rules-syntax' })).contents;
      const [projects] = (await client.readResource({ uri: 'timesheet://projects' })).contents;
      const { messages } = await client.getPrompt({
        name: 'weekly-timesheet',
        arguments: { week: '2026-W48' },
      });

      expect(syntax).toMatchObject({
        mimeType: 'text/markdown',
        text: expect.stringMatching(/^# Classification rules syntax/),
      });
      expect(projects).toMatchObject({ mimeType: 'application/json', text: '{"projects":[]}' });
      expect(messages[0]?.content).toMatchObject({ text: expect.stringContaining('2026-W48') });
    });

    it('answers an unknown tool with a JSON-RPC error', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    });

    describe('toolsets', () => {
      const connect = (query: string, key = token) =>
        connectHttpClient(`${target.baseUrl}/mcp${query}`, target.fetch, { authorization: `Bearer ${key}` });
      const namesOf = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

      it('lists and calls only the tools of the toolsets chosen with ?toolsets=', async () => {
        const own = await connect('?toolsets=time');

        expect((await namesOf(own)).sort()).toEqual([...TIME_TOOLS].sort());
        const result = (await own.callTool({
          name: 'compute_duration',
          arguments: VALID_CALLS.compute_duration.args,
        })) as CallToolResult;
        expect(result.structuredContent).toMatchObject(VALID_CALLS.compute_duration.expect);
        await own.close();
      });

      it('refuses a tool outside the chosen toolsets, naming its toolset and how to enable it', async () => {
        const own = await connect('?toolsets=time');

        await expect(own.callTool({ name: 'list_calendars', arguments: {} })).rejects.toThrow(
          /toolset "calendar".*\?toolsets=time,calendar/,
        );
        await own.close();
      });

      it('combines toolsets in listing order', async () => {
        const own = await connect('?toolsets=availability,time');
        const names = await namesOf(own);

        expect(names.slice(0, TIME_TOOLS.length)).toEqual([...TIME_TOOLS]);
        expect(names).toContain('book_slot');
        expect(names).not.toContain('list_events');
        await own.close();
      });

      it('lists every toolset for ?toolsets=all', async () => {
        const own = await connect('?toolsets=all');

        expect((await namesOf(own)).length).toBe((await namesOf(client)).length);
        await own.close();
      });

      it('answers an unknown toolset with 400 naming it and the known ones', async () => {
        const response = await target.fetch(`${target.baseUrl}/mcp?toolsets=time,memroy`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });

        expect(response.status).toBe(400);
        const { error } = (await response.json()) as { error: { code: number; message: string } };
        expect(error.code).toBe(-32602);
        expect(error.message).toMatch(/Unknown toolset "memroy".*time, calendar, availability/);
      });

      it("applies the key's default toolsets when the URL chooses none, and lets the URL override it", async () => {
        const key = await target.newKey({ toolsets: ['calendar'] });
        const byDefault = await connect('', key.token);
        const chosen = await connect('?toolsets=time', key.token);

        expect(await namesOf(byDefault)).toContain('list_events');
        expect(await namesOf(byDefault)).not.toContain('get_temporal_context');
        expect((await namesOf(chosen)).sort()).toEqual([...TIME_TOOLS].sort());
        await byDefault.close();
        await chosen.close();
      });
    });

    it.each(['GET', 'DELETE', 'PUT'])('answers %s /mcp with 405 and Allow: POST', async (method) => {
      const response = await target.fetch(`${target.baseUrl}/mcp`, { method });

      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });

    it('refuses MCP without a Bearer key with 401 and says how to get one', async () => {
      const response = await target.fetch(`${target.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });

      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /keys create/,
      );
    });

    it.each(['mrd_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-key'])(
      'refuses an unknown key %s with 401',
      async (token) => {
        await expect(
          connectHttpClient(`${target.baseUrl}/mcp`, target.fetch, { authorization: `Bearer ${token}` }),
        ).rejects.toThrow(/401|unknown or revoked/);
      },
    );

    it('refuses a key once it is revoked', async () => {
      const { token, keyId } = await target.newKey();
      const own = await connectHttpClient(`${target.baseUrl}/mcp`, target.fetch, {
        authorization: `Bearer ${token}`,
      });
      await own.listTools();

      await target.revokeKey(keyId);

      await expect(own.listTools()).rejects.toThrow(/401|unknown or revoked/);
      await own.close();
    });

    it('answers GET /health with 200', async () => {
      const response = await target.fetch(`${target.baseUrl}/health`);

      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok' });
    });

    it('answers unknown paths with 404', async () => {
      const response = await target.fetch(`${target.baseUrl}/elsewhere`, { method: 'POST', body: '{}' });

      expect(response.status).toBe(404);
    });

    it('answers a malformed JSON body with a JSON-RPC parse error', async () => {
      const response = await target.fetch(`${target.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: '{"jsonrpc": "2.0", ',
      });

      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    });

    function post(body: unknown, headers: Record<string, string> = {}) {
      return target.fetch(`${target.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2025-06-18',
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    }

    it('refuses a foreign Origin with 403 and says how to allow one', async () => {
      const response = await post(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { origin: 'http://evil.example.com' },
      );

      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /evil\.example\.com.*--allowed-origins.*MERIDIAN_ALLOWED_ORIGINS/,
      );
    });

    it('answers a configured Origin', async () => {
      const response = await post(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { origin: target.allowedOrigin },
      );

      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 1, result: {} });
    });

    it('answers an empty batch with -32600', async () => {
      const response = await post([]);

      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    });

    it('refuses a batch whose requests share an id, and runs none of them', async () => {
      const call = (summary: string) => ({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'create_calendar', arguments: { summary } },
      });
      const count = async () =>
        ((await client.callTool({ name: 'list_calendars', arguments: { format: 'json' } })) as CallToolResult)
          .structuredContent?.count;
      const before = await count();

      const response = await post([call('dup one'), call('dup two'), call('dup three')]);

      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: number; message: string } };
      expect(error.code).toBe(-32600);
      expect(error.message).toMatch(/id 7 .*own id/);
      expect(await count()).toBe(before);
    });

    it.each([
      ['TRACE', '/mcp', 'POST'],
      ['PATCH', '/mcp', 'POST'],
      ['OPTIONS', '/mcp', 'POST'],
      ['TRACE', '/health', 'GET, HEAD'],
      ['POST', '/health', 'GET, HEAD'],
      ['DELETE', '/health', 'GET, HEAD'],
    ])('answers %s %s with 405 (Allow: %s) and logs no error', async (method, path, allow) => {
      const errorsBefore = target.loggedErrors();

      const response = await target.send(method, path);

      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(target.loggedErrors()).toBe(errorsBefore);
    });

    describe('both protocol eras, one server', () => {
      it.each(ERAS)(
        'serves a $label client every toolset, a resource, a prompt and a completion',
        async (era) => {
          const own = await connectHttpClient(
            `${target.baseUrl}/mcp`,
            target.fetch,
            { authorization: `Bearer ${token}` },
            era.era,
          );

          expect(own.getProtocolEra()).toBe(era.sdkEra);
          expect(own.getNegotiatedProtocolVersion()).toBe(era.version);
          await useEveryCapability(own, era.version);
          await own.close();
        },
      );

      it('lists the same tools in the same order to every era, on every call', async () => {
        const listings = [];
        for (const era of ERAS) {
          const own = await connectHttpClient(
            `${target.baseUrl}/mcp`,
            target.fetch,
            { authorization: `Bearer ${token}` },
            era.era,
          );
          listings.push((await own.listTools()).tools.map((tool) => tool.name));
          listings.push((await own.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name));
          await own.close();
        }

        expect(listings[0]?.length).toBeGreaterThan(40);
        for (const listing of listings) expect(listing).toEqual(listings[0]);
      });

      /** A 2026-07-28 request as a client sends it: the envelope in `_meta`, the headers that mirror it. */
      function modern(
        method: string,
        params: Record<string, unknown> = {},
        headers: Record<string, string> = {},
      ) {
        const version = (headers['mcp-protocol-version'] ?? '2026-07-28') as string;
        return target.fetch(`${target.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
            'mcp-protocol-version': version,
            'mcp-method': method,
            ...headers,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 9,
            method,
            params: {
              ...params,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': version,
                'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        });
      }

      it('answers 2026-07-28 in JSON with resultType, ttlMs and cacheScope', async () => {
        const response = await modern('tools/list');

        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await response.json()).toMatchObject({
          id: 9,
          result: { resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' },
        });
      });

      it('answers 2025 in JSON, without the 2026 fields', async () => {
        const response = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' });

        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const { result } = (await response.json()) as { result: Record<string, unknown> };
        expect(result).not.toHaveProperty('resultType');
        expect(result).not.toHaveProperty('ttlMs');
      });

      it('answers server/discover with the versions, capabilities and identity', async () => {
        const response = await modern('server/discover');

        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({
          result: {
            supportedVersions: expect.arrayContaining(['2026-07-28']),
            capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
            cacheScope: 'private',
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'meridian' } },
          },
        });
      });

      it('refuses a request whose Mcp-Method header disagrees with its body with HeaderMismatch (-32020)', async () => {
        const response = await modern('tools/list', {}, { 'mcp-method': 'tools/call' });

        expect(response.status).toBe(400);
        const { error } = (await response.json()) as { error: { code: number; message: string } };
        expect(error.code).toBe(-32020);
        expect(error.message).toMatch(/tools\/list.*tools\/call/);
      });

      it('answers an unsupported version with UnsupportedProtocolVersion (-32022) naming the supported ones', async () => {
        const response = await modern('tools/list', {}, { 'mcp-protocol-version': '2099-01-01' });

        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({
          error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
        });
      });

      it('answers ping and logging/setLevel on 2025 only: 2026-07-28 removed them', async () => {
        expect(await (await post({ jsonrpc: '2.0', id: 4, method: 'ping' })).json()).toMatchObject({
          result: {},
        });
        const response = await modern('ping');

        expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32601);
      });

      it('answers a method it does not implement with 404 and -32601 on 2026-07-28, in-band on 2025', async () => {
        const unknown = await modern('unknown/method');

        expect(unknown.status).toBe(404);
        expect(await unknown.json()).toMatchObject({ id: 9, error: { code: -32601 } });
        const legacy = await post({ jsonrpc: '2.0', id: 5, method: 'unknown/method' });

        expect(legacy.status).toBe(200);
        expect(await legacy.json()).toMatchObject({ id: 5, error: { code: -32601 } });
      });

      it('keeps a 2026-07-28 tool error in-band on 200', async () => {
        const response = await modern(
          'tools/call',
          { name: 'no_such_tool', arguments: {} },
          { 'mcp-name': 'no_such_tool' },
        );

        expect(response.status).toBe(200);
        expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32602);
      });

      it('still refuses a 2026-07-28 request without a key before reading it', async () => {
        const response = await modern('tools/list', {}, { authorization: '' });

        expect(response.status).toBe(401);
      });
    });

    it('serves concurrent requests independently (stateless)', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client.callTool({
            name: 'compute_duration',
            arguments: { start: '2026-01-01T00:00:00Z', end: `2026-01-01T0${i}:00:00Z` },
          }),
        ),
      );

      expect(results.map((r) => (r as CallToolResult).structuredContent?.total_seconds)).toEqual(
        Array.from({ length: 10 }, (_, i) => i * 3600),
      );
    });
  });
}
