import { decode } from '@toon-format/toon';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { isDomainError } from '../../../lambdas/core/errors.js';
import type { McpDeps } from '../../../lambdas/mcp/deps.js';
import { PURE_COMPUTATION } from '../../../lambdas/mcp/tool-definition.js';
import { successResult } from '../../../lambdas/mcp/tool-result.js';
import { expandRruleTool } from '../../../lambdas/mcp/tools/expand-rrule.js';
import { TOOLSETS } from '../../../lambdas/mcp/tools/index.js';

// expand_rrule is a pure computation: it reads nothing from its dependencies.
const deps = {} as McpDeps;

/** Validates raw arguments as the server does, runs the tool, and checks the output schema. */
async function call(args: Record<string, unknown>) {
  const input = expandRruleTool.input.parse(args);
  // The per-request context (caller identity) is irrelevant to a pure computation.
  const run = expandRruleTool.run as (
    deps: McpDeps,
    input: z.output<typeof expandRruleTool.input>,
  ) => unknown;
  const output = await run(deps, input);
  return { input, output: expandRruleTool.output.parse(output) };
}

describe('expand_rrule tool', () => {
  describe('contract', () => {
    it('is registered in the time toolset under its public name with pure-computation hints', () => {
      expect(TOOLSETS.time).toContain(expandRruleTool);
      expect(expandRruleTool.name).toBe('expand_rrule');
      expect(expandRruleTool.annotations).toEqual(PURE_COMPUTATION);
    });

    it('describes every input and output field, and requires rrule, dtstart and timezone', () => {
      const input = z.toJSONSchema(expandRruleTool.input, { io: 'input' }) as {
        required: string[];
        properties: Record<string, { description?: string }>;
      };
      expect(input.required.sort()).toEqual(['dtstart', 'rrule', 'timezone']);
      for (const [field, schema] of Object.entries(input.properties))
        expect(schema.description, field).toBeTruthy();
      const output = z.toJSONSchema(expandRruleTool.output, { io: 'output' }) as {
        properties: Record<string, { description?: string }>;
      };
      expect(Object.keys(output.properties).sort()).toEqual([
        'count',
        'instances',
        'next_after',
        'timezone',
        'truncated',
      ]);
      for (const [field, schema] of Object.entries(output.properties))
        expect(schema.description, field).toBeTruthy();
    });

    it('tells agents about DST, UNTIL and paging in its description', () => {
      expect(expandRruleTool.description).toMatch(/03:30 EDT/);
      expect(expandRruleTool.description).toMatch(/first occurrence/);
      expect(expandRruleTool.description).toMatch(/UNTIL must be UTC/);
      expect(expandRruleTool.description).toMatch(/next_after/);
    });

    it('refuses a count above 1000 and a negative duration at the schema', () => {
      expect(
        expandRruleTool.input.safeParse({
          rrule: 'FREQ=DAILY',
          dtstart: '2026-01-01T09:00',
          timezone: 'UTC',
          count: 1001,
        }).success,
      ).toBe(false);
      expect(
        expandRruleTool.input.safeParse({
          rrule: 'FREQ=DAILY',
          dtstart: '2026-01-01T09:00',
          timezone: 'UTC',
          duration_minutes: -1,
        }).success,
      ).toBe(false);
    });
  });

  describe('run', () => {
    it('returns snake_case instances, count, truncated and next_after', async () => {
      const { output } = await call({
        rrule: 'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR',
        dtstart: '2026-03-01T09:00:00',
        timezone: 'America/New_York',
        count: 3,
        duration_minutes: 45,
      });
      expect(output).toEqual({
        instances: [
          {
            start: '2026-03-02T14:00:00+00:00',
            end: '2026-03-02T14:45:00+00:00',
            local_start: '2026-03-02T09:00:00-05:00',
          },
          {
            start: '2026-03-04T14:00:00+00:00',
            end: '2026-03-04T14:45:00+00:00',
            local_start: '2026-03-04T09:00:00-05:00',
          },
          {
            start: '2026-03-06T14:00:00+00:00',
            end: '2026-03-06T14:45:00+00:00',
            local_start: '2026-03-06T09:00:00-05:00',
          },
        ],
        count: 3,
        truncated: true,
        next_after: '2026-03-09T13:00:00+00:00',
        timezone: 'America/New_York',
      });
    });

    it('defaults to 60-minute instances and TOON text', async () => {
      const { input, output } = await call({
        rrule: 'FREQ=DAILY;COUNT=1',
        dtstart: '2026-07-01T09:00',
        timezone: 'Europe/London',
      });
      expect(input.format).toBe('toon');
      expect(output).toEqual({
        instances: [
          {
            start: '2026-07-01T08:00:00+00:00',
            end: '2026-07-01T09:00:00+00:00',
            local_start: '2026-07-01T09:00:00+01:00',
          },
        ],
        count: 1,
        truncated: false,
        timezone: 'Europe/London',
      });
      const result = successResult(output, input.format);
      const [text] = result.content as [{ type: 'text'; text: string }];
      expect(decode(text.text)).toEqual(output);
    });

    it('passes exdates and the after/before window through', async () => {
      const { output } = await call({
        rrule: 'FREQ=DAILY',
        dtstart: '1970-01-01T09:00:00',
        timezone: 'America/Chicago',
        exdates: ['2026-06-02T09:00:00'],
        after: '2026-06-01T00:00:00-05:00',
        before: '2026-06-03T23:59:59-05:00',
      });
      expect(output.instances.map((i) => i.local_start)).toEqual([
        '2026-06-01T09:00:00-05:00',
        '2026-06-03T09:00:00-05:00',
      ]);
    });

    it('throws INVALID_RRULE for FREQ=SOMETIMES, which the server turns into an isError result', async () => {
      await expect(
        call({ rrule: 'FREQ=SOMETIMES', dtstart: '2026-01-01T09:00', timezone: 'UTC' }),
      ).rejects.toSatisfy((error) => isDomainError(error, 'INVALID_RRULE'));
    });
  });
});
