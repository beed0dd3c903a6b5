import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { createMcpServer } from '../../../lambdas/mcp/create-mcp-server.js';
import { ResolveDatetimeOutput } from '../../../lambdas/mcp/tools/resolve-datetime.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

let deps: TestRuntime;

beforeAll(async () => {
  deps = await startTestRuntime({
    clock: fixedClock('2026-02-20T15:30:00Z'),
    defaultTimezone: 'America/New_York',
  });
});

afterAll(async () => {
  await deps.close();
});

function errorBody(result: Awaited<ReturnType<Client['callTool']>>): { code: string; message: string } {
  const [content] = result.content as Array<{ type: string; text: string }>;
  return (JSON.parse(content!.text) as { error: { code: string; message: string } }).error;
}

describe('resolve_datetime tool', () => {
  let client: Client;

  beforeEach(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(deps, { principal: LOCAL_OWNER }).connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterEach(async () => {
    await client.close();
  });

  describe('tools/list', () => {
    it('declares pure-computation annotations and schemas with described fields', async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'resolve_datetime');
      expect(tool?.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(tool?.inputSchema.required).toEqual(['expression']);
      const inputs = tool?.inputSchema.properties as Record<string, { description?: string }>;
      for (const field of ['expression', 'timezone', 'reference_time', 'weekend', 'locale'])
        expect(inputs[field]?.description).toBeTruthy();
      const outputs = tool?.outputSchema?.properties as Record<string, { description?: string }>;
      expect(Object.keys(outputs).sort()).toEqual(
        [
          'alternatives',
          'ambiguous',
          'expression_timezone',
          'interpretation',
          'matched_category',
          'range',
          'reference_time',
          'resolved_local',
          'resolved_utc',
          'rule',
          'timezone',
        ].sort(),
      );
      // The listing's output schemas keep shape only (ADR 0004); the tool's own schema requires these.
      const required = Object.entries(ResolveDatetimeOutput.shape)
        .filter(([, schema]) => !schema.safeParse(undefined).success)
        .map(([key]) => key);
      expect(required.sort()).toEqual(
        [
          'interpretation',
          'matched_category',
          'reference_time',
          'resolved_local',
          'resolved_utc',
          'timezone',
        ].sort(),
      );
      expect(tool?.description).toContain('"next X" is X of next week');
    });
  });

  describe('tools/call', () => {
    it('resolves the reference example in the configured zone', async () => {
      const result = await client.callTool({
        name: 'resolve_datetime',
        arguments: { expression: 'next Tuesday at 2pm' },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        resolved_utc: '2026-02-24T19:00:00+00:00',
        resolved_local: '2026-02-24T14:00:00-05:00',
        timezone: 'America/New_York',
        interpretation: 'Tuesday, February 24, 2026 at 2:00 PM',
      });
    });

    it('resolves relative to reference_time in the given zone', async () => {
      const result = await client.callTool({
        name: 'resolve_datetime',
        arguments: {
          expression: '+1d',
          timezone: 'America/New_York',
          reference_time: '2026-03-08T01:00:00-05:00',
        },
      });
      expect(result.structuredContent).toMatchObject({ resolved_local: '2026-03-09T01:00:00-04:00' });
    });

    it('reports the other reading of "last Wednesday" so the agent can confirm it', async () => {
      const result = await client.callTool({
        name: 'resolve_datetime',
        arguments: { expression: 'last Wednesday at 5' },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({
        resolved_utc: '2026-02-18T10:00:00+00:00',
        resolved_local: '2026-02-18T05:00:00-05:00',
        timezone: 'America/New_York',
        interpretation: 'Wednesday, February 18, 2026 at 5:00 AM',
        reference_time: '2026-02-20T10:30:00-05:00',
        matched_category: 'combined',
        ambiguous: true,
        rule: 'the most recent Wednesday before today; a time without am/pm on the 24-hour clock (at 5 = 05:00)',
        alternatives: [
          {
            resolved_utc: '2026-02-11T10:00:00+00:00',
            resolved_local: '2026-02-11T05:00:00-05:00',
            interpretation: 'Wednesday, February 11, 2026 at 5:00 AM',
            rule: 'Wednesday of last week (weeks run Monday–Sunday)',
          },
          {
            resolved_utc: '2026-02-18T22:00:00+00:00',
            resolved_local: '2026-02-18T17:00:00-05:00',
            interpretation: 'Wednesday, February 18, 2026 at 5:00 PM',
            rule: 'the same time after noon (at 5 = 17:00)',
          },
        ],
      });
    });

    it('leaves ambiguous, rule and alternatives out when there is one reading', async () => {
      const result = await client.callTool({
        name: 'resolve_datetime',
        arguments: { expression: 'tomorrow at 2pm' },
      });
      expect(Object.keys(result.structuredContent ?? {})).not.toContain('ambiguous');
      expect(Object.keys(result.structuredContent ?? {})).not.toContain('alternatives');
    });

    it('answers an empty expression with INVALID_INPUT', async () => {
      const result = await client.callTool({ name: 'resolve_datetime', arguments: { expression: '  ' } });
      expect(result.isError).toBe(true);
      expect(errorBody(result).code).toBe('INVALID_INPUT');
    });

    it.each([
      [{ expression: 'whenever suits' }, 'UNRECOGNIZED_EXPRESSION'],
      [{ expression: 'today', timezone: 'Mars/Olympus' }, 'INVALID_TIMEZONE'],
      [{ expression: 'today', reference_time: 'yesterday' }, 'INVALID_DATETIME'],
      [{ expression: 'fifth Monday of February 2026' }, 'OUT_OF_RANGE'],
    ])('answers %j with %s', async (args, code) => {
      const result = await client.callTool({ name: 'resolve_datetime', arguments: args });
      expect(result.isError).toBe(true);
      expect(errorBody(result).code).toBe(code);
    });
  });
});
