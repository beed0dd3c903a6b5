import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH } from '../../lambdas/core/input-limits.js';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { callTool, connectInMemory, errorOf } from '../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../support/served-runtime.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

const DEPTH = 10_000;

/** `[[[…]]]` nested `depth` deep, built from text: no recursion here either. */
const deepArray = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
/** `{"a":{"a":…{}}}` nested `depth` deep. */
const deepObject = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`);

/**
 * Arguments nested thousands deep are refused before the schema sees them, with INVALID_INPUT naming
 * the field and the limit, never -32603 "Maximum call stack size exceeded" (issue 18, finding 6).
 * Through the SDK's real Client in memory (its HTTP transport cannot serialise 10,000 levels: the
 * client's own JSON.stringify overflows first), and raw JSON-RPC over HTTP, which can.
 */
describe('argument nesting', () => {
  let runtime: TestRuntime;
  let served: ServedRuntime;
  let client: Client;
  let token: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock: fixedClock('2026-03-02T12:00:00Z'), defaultTimezone: 'UTC' });
    client = await connectInMemory(runtime, 'nesting');
    served = await serveRuntime(runtime);
    token = (await served.connect('nesting')).token;
  });

  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it.each([
    ['list_calendars', 'format', deepArray],
    ['create_event', 'attendees', deepArray],
    ['get_temporal_context', 'timezone', deepObject],
    ['batch_update_events', 'updates', deepObject],
    ['update_memory', 'content', deepArray],
    ['create_classification_rule', 'conditions', deepObject],
  ])(
    '%s refuses "%s" nested 10,000 deep with INVALID_INPUT naming the field and the limit',
    async (tool, field, deep) => {
      const result = await callTool(client, tool, { [field]: deep(DEPTH) });

      const error = errorOf(result);
      expect(error).toMatchObject({ code: 'INVALID_INPUT', field, max_depth: MAX_ARGUMENT_DEPTH });
      expect(error.message).toContain(`at most ${MAX_ARGUMENT_DEPTH} levels`);
    },
  );

  it('accepts nesting at the limit as far as depth goes: the schema then judges the value', async () => {
    const result = await callTool(client, 'list_calendars', { format: deepArray(MAX_ARGUMENT_DEPTH) });

    expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT', problems: [{ field: 'format' }] });
  });

  it('refuses one level past the limit', async () => {
    const result = await callTool(client, 'list_calendars', { format: deepArray(MAX_ARGUMENT_DEPTH + 1) });

    expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT', field: 'format' });
  });

  describe('raw JSON-RPC bodies', () => {
    const post = (body: string) =>
      fetch(served.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body,
      });
    const call = (params: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":${params}}`;
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    it('answers a deep argument over plain HTTP with the same INVALID_INPUT', async () => {
      const response = await post(call(`{"name":"list_calendars","arguments":{"format":${nested(DEPTH)}}}`));

      const answer = (await response.json()) as { result: { isError: boolean; content: { text: string }[] } };
      expect(answer.result.isError).toBe(true);
      expect(JSON.parse(answer.result.content[0]!.text).error).toMatchObject({ code: 'INVALID_INPUT' });
    });

    it('answers deep nesting outside the arguments (_meta, params, a batch) without an internal error', async () => {
      const bodies = [
        call(`{"name":"list_calendars","arguments":{},"_meta":{"x":${nested(DEPTH)}}}`),
        call(`{"name":${nested(DEPTH)},"arguments":{}}`),
        `[${call(`{"name":"list_calendars","arguments":{"format":${nested(DEPTH)}}}`)}]`,
        `{"jsonrpc":"2.0","id":${nested(DEPTH)},"method":"ping"}`,
      ];
      for (const body of bodies) {
        const response = await post(body);
        const text = await response.text();
        expect(text, body.slice(0, 80)).not.toMatch(/-32603|call stack/);
        expect(response.status, body.slice(0, 80)).toBeLessThan(500);
      }
      const health = await fetch(`${served.url}/health`);
      expect(health.status).toBe(200);
    });
  });
});
