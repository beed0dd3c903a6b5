import type { Client } from '@modelcontextprotocol/client';
import { type CallToolResult, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../lambdas/core/access/rights.js';
import { MAX_CALENDAR_ID_BYTES, MAX_EVENT_ID_BYTES } from '../../lambdas/core/input-limits.js';
import { fixedClock } from '../../lambdas/core/ports/index.js';
import { connectInMemory, errorOf } from '../support/mcp-client.js';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.js';

/**
 * Input the caller can fix never ends in -32603: oversized strings, impossible offsets, instants
 * past year 9999, ids too long for the store's keys and malformed tools/call params each get a
 * code and a message naming the caller's field — through the real server and the SDK's Client.
 */
describe('input robustness', () => {
  let runtime: TestRuntime;
  let client: Client;
  let calendarId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ clock: fixedClock('2026-03-01T12:00:00Z'), defaultTimezone: 'UTC' });
    calendarId = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Team', time_zone: 'UTC' })).id;
    client = await connectInMemory(runtime, 'robustness');
  });

  afterAll(async () => {
    await client?.close();
    await runtime?.close();
  });

  const call = async (name: string, args: unknown) =>
    (await client.request(
      { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
      CallToolResultSchema,
    )) as CallToolResult;

  const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  describe('string caps', () => {
    it('refuses a 3.9 MB time zone at once, naming the field, without repeating it', async () => {
      const started = performance.now();

      const result = await call('get_temporal_context', { timezone: 'Europe/'.repeat(560_000) });

      expect(performance.now() - started).toBeLessThan(1_000);
      expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT', field: 'timezone' });
      expect(textOf(result).length).toBeLessThan(1_000);
    });

    it('names a wrong option without repeating a long value (found by the fuzz test)', async () => {
      const wrong = 'é'.repeat(600);

      const result = await call('list_calendars', { format: wrong });

      expect(errorOf(result)).toMatchObject({ code: 'INVALID_INPUT' });
      expect(textOf(result)).not.toContain(wrong.slice(0, 100));
      expect(textOf(result)).toContain('(600 characters)');
    });

    it('refuses a zone name longer than any IANA name by its length, before matching it', async () => {
      const result = await call('convert_timezone', {
        datetime: '2026-03-01T12:00:00Z',
        target_timezone: 'Europe/Lodnon'.repeat(5),
      });

      expect(errorOf(result).code).toBe('INVALID_INPUT');
      expect(errorOf(result).message).toMatch(/"target_timezone": Too long: at most 64 characters/);
    });

    it('still suggests real zones for a misspelt name', async () => {
      const error = errorOf(await call('get_temporal_context', { timezone: 'Europe/Lodnon' }));

      expect(error.code).toBe('INVALID_TIMEZONE');
      expect(error.suggestions).toContain('Europe/London');
    });

    it('states the limit of every string field in the published inputSchema', async () => {
      const { tools } = await client.listTools();
      const unbounded = tools.flatMap((tool) =>
        Object.entries(tool.inputSchema.properties ?? {})
          .filter(([, schema]) => (schema as { type?: string }).type === 'string')
          .filter(([, schema]) => {
            const { maxLength, enum: values, pattern } = schema as Record<string, unknown>;
            return maxLength === undefined && values === undefined && pattern === undefined;
          })
          .map(([field]) => `${tool.name}.${field}`),
      );

      expect(unbounded).toEqual([]);
    });
  });

  describe('ids and the store’s key limits', () => {
    it('refuses an event_id of 1,024 characters as input, naming event_id', async () => {
      const error = errorOf(
        await call('get_event', { calendar_id: calendarId, event_id: 'e'.repeat(1_024) }),
      );

      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toContain('"event_id"');
    });

    it('counts the bytes of escaped "#" against the limit', async () => {
      const error = errorOf(
        await call('delete_event', { calendar_id: calendarId, event_id: '#'.repeat(400) }),
      );

      expect(error).toMatchObject({ code: 'INVALID_INPUT' });
      expect(error.message).toContain('"event_id": Too long');
    });

    it('refuses a 1 MB calendar_id as input, naming calendar_id', async () => {
      const error = errorOf(await call('list_events', { calendar_id: `native/${'c'.repeat(1_048_576)}` }));

      expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'calendar_id' });
    });

    it('answers ids at exactly the limits with NOT_FOUND: the limits fit the keys', async () => {
      const longestCalendar = `native/${'c'.repeat(MAX_CALENDAR_ID_BYTES - 'native/'.length)}`;
      const longestEvent = 'e'.repeat(MAX_EVENT_ID_BYTES);

      const calendar = errorOf(await call('list_events', { calendar_id: longestCalendar }));
      const event = errorOf(await call('get_event', { calendar_id: calendarId, event_id: longestEvent }));
      const multibyte = errorOf(
        await call('check_availability', {
          calendar_id: `native/${'é'.repeat(600)}`,
          start: '2026-03-02T10:00:00Z',
          end: '2026-03-02T11:00:00Z',
        }),
      );

      expect(calendar.code).toMatch(/^(NOT_FOUND|FORBIDDEN)$/);
      expect(event.code).toBe('NOT_FOUND');
      expect(event.message.length).toBeLessThan(400);
      expect(multibyte).toMatchObject({ code: 'INVALID_INPUT' });
      expect(multibyte.message).toContain('bytes in UTF-8');
    });
  });

  describe('offsets and the range of instants', () => {
    it.each([
      ['compute_duration', { start: '2026-01-01T00:00:00+99:99', end: '2026-01-01T00:00:00Z' }, 'start'],
      ['compute_duration', { start: '2026-01-01T00:00:00Z', end: '2026-01-01T00:00:00+24:00' }, 'end'],
      ['convert_timezone', { datetime: '2026-01-01T00:00:00-14:01', target_timezone: 'UTC' }, 'datetime'],
      [
        'resolve_datetime',
        { expression: 'tomorrow', reference_time: '2026-01-01T00:00:00+15:00' },
        'reference_time',
      ],
    ])(
      '%s refuses an offset beyond ±14:00 with INVALID_DATETIME naming the field (%j)',
      async (tool, args, field) => {
        const error = errorOf(await call(tool, args));

        expect(error).toMatchObject({ code: 'INVALID_DATETIME', field });
        expect(error.message).toMatch(/offsets run from -14:00 to \+14:00/);
      },
    );

    it('accepts the extreme real offsets, +14:00 and -12:00', async () => {
      const result = await call('compute_duration', {
        start: '2026-01-01T00:00:00+14:00',
        end: '2026-01-01T00:00:00-12:00',
      });

      expect(result.structuredContent).toMatchObject({ total_seconds: 26 * 3600 });
    });

    it.each([['0000-12-31T23:59:59Z'], ['9999-12-31T10:00:00-14:00'], ['0001-01-01T00:00:00+00:01']])(
      'refuses %s, outside years 0001–9999 in UTC, with OUT_OF_RANGE naming the field',
      async (datetime) => {
        const error = errorOf(await call('convert_timezone', { datetime, target_timezone: 'UTC' }));

        expect(error).toMatchObject({ code: 'OUT_OF_RANGE', field: 'datetime' });
      },
    );

    it('answers OUT_OF_RANGE when the result would fall in year 10000', async () => {
      const error = errorOf(
        await call('convert_timezone', {
          datetime: '9999-12-31T23:00:00Z',
          target_timezone: 'Pacific/Kiritimati',
        }),
      );

      expect(error.code).toBe('OUT_OF_RANGE');
    });

    it('answers OUT_OF_RANGE for an instance that would end in year 10000', async () => {
      const result = await call('expand_rrule', {
        rrule: 'FREQ=DAILY;COUNT=1',
        dtstart: '9999-12-31T23:30:00',
        timezone: 'UTC',
        duration_minutes: 60,
      });

      expect(errorOf(result).code).toBe('OUT_OF_RANGE');
    });

    it('names "end", the caller’s field, when a default window end passes year 9999', async () => {
      const error = errorOf(
        await call('list_events', { calendar_id: calendarId, start: '9999-12-20T00:00:00Z' }),
      );

      expect(error).toMatchObject({ code: 'OUT_OF_RANGE', field: 'end' });
      expect(error.message).not.toContain('before');
    });

    it.each([[''], ['2026-02-30T10:00:00Z'], ['9999-12-31T23:00:00-05:00']])(
      'create_event refuses a start date_time of %j with a code naming "start"',
      async (dateTime) => {
        const error = errorOf(
          await call('create_event', {
            calendar_id: calendarId,
            summary: 'Standup',
            start: { date_time: dateTime },
            end: { date_time: '2026-03-03T11:00:00Z' },
          }),
        );

        expect(error.code).toMatch(/^(INVALID_DATETIME|OUT_OF_RANGE)$/);
        // The event-time reader names the part of the field it could not read.
        expect(error.field).toMatch(/^start(\.date_time)?$/);
      },
    );

    it('books the last hour of year 9999', async () => {
      const result = await call('book_slot', {
        calendar_id: calendarId,
        start: '9999-12-31T23:00:00Z',
        end: '9999-12-31T23:59:00Z',
        summary: 'Last call',
      });

      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ start: '9999-12-31T23:00:00+00:00' });
    });
  });

  describe('malformed tools/call params', () => {
    it.each([['str'], [[1, 2]], [42], [null]])(
      'answers arguments %j with -32602 naming "arguments", not a zod dump',
      async (args) => {
        const call = client.request(
          { method: 'tools/call', params: { name: 'compute_duration', arguments: args as never } },
          CallToolResultSchema,
        );

        await expect(call).rejects.toMatchObject({
          code: ProtocolErrorCode.InvalidParams,
          message: expect.stringContaining('"arguments" must be a JSON object'),
        });
        await expect(call).rejects.not.toThrow(/"code":|invalid_type|expected record/);
      },
    );

    it('answers a call without a tool name with -32602 naming "name"', async () => {
      const call = client.request(
        { method: 'tools/call', params: { arguments: {} } as never },
        CallToolResultSchema,
      );

      await expect(call).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('"name" must be the tool name'),
      });
    });

    it('still answers an unknown method with -32601', async () => {
      const call = client.request({ method: 'nope/nothing', params: {} }, CallToolResultSchema);

      await expect(call).rejects.toMatchObject({ code: ProtocolErrorCode.MethodNotFound });
    });
  });
});
