/**
 * What one list_events answer costs a client, in characters and o200k tokens, for each `format`:
 * the text content, the structuredContent, and the whole result as it crosses the wire. A world
 * like issue 22's: three calendars (New York, Berlin, no zone), 63 events, two weekly series, and
 * attendees from two client companies. Sizes, not timings: `npx tsx bench/answer-size.ts`.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { LOCAL_OWNER } from '../lambdas/core/access/rights.js';
import { fixedClock } from '../lambdas/core/ports/index.js';
import { callTool, connectInMemory } from '../test/support/mcp-client.js';
import { startTestRuntime } from '../test/support/test-runtime.js';

const DAY_MS = 86_400_000;
const WINDOW = { start: '2027-03-01T00:00:00Z', end: '2027-03-29T00:00:00Z' };
const ATTENDEES = [
  ['ana@acme.com', 'li@acme.com'],
  ['sam@globex.com'],
  ['ana@acme.com', 'sam@globex.com', 'kim@example.org'],
];

async function world() {
  const runtime = await startTestRuntime({
    clock: fixedClock('2027-02-28T12:00:00Z'),
    defaultTimezone: 'America/New_York',
  });
  const zones = [
    { name: 'New York', time_zone: 'America/New_York' },
    { name: 'Berlin', time_zone: 'Europe/Berlin' },
    { name: 'Shared' },
  ];
  const calendars = [];
  for (const zone of zones) calendars.push(await runtime.calendars.createCalendar(LOCAL_OWNER, zone));
  // Two weekly series of four occurrences each (8 events) and 55 single events: 63 in the window.
  for (const [i, calendar] of calendars.slice(0, 2).entries()) {
    await runtime.calendars.createEvent(LOCAL_OWNER, calendar.id, {
      summary: i === 0 ? 'Team standup' : 'Acme weekly',
      start: { date_time: '2027-03-02T09:30:00', time_zone: zones[i]?.time_zone ?? 'UTC' },
      end: { date_time: '2027-03-02T10:00:00', time_zone: zones[i]?.time_zone ?? 'UTC' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      attendees: ATTENDEES[i]?.map((email) => ({ email, response_status: 'needsAction' as const })) ?? [],
    });
  }
  for (let n = 0; n < 55; n++) {
    const calendar = calendars[n % 3]!;
    const start = Date.parse(WINDOW.start) + (n % 27) * DAY_MS + (13 + (n % 5)) * 3_600_000;
    await runtime.calendars.createEvent(LOCAL_OWNER, calendar.id, {
      summary: `${n % 2 ? 'Acme' : 'Globex'} review ${n}`,
      ...(n % 4 === 0 ? { location: 'Room 4' } : {}),
      start: { date_time: new Date(start).toISOString() },
      end: { date_time: new Date(start + 3_600_000).toISOString() },
      attendees: ATTENDEES[n % 3]?.map((email) => ({ email, response_status: 'needsAction' as const })) ?? [],
    });
  }
  return runtime;
}

const size = (text: string) => ({ chars: text.length, tokens: encode(text).length });

export async function run(): Promise<void> {
  const runtime = await world();
  const client = await connectInMemory(runtime);
  for (const format of ['toon', 'json'] as const) {
    const result = await callTool(client, 'list_events', { ...WINDOW, max_results: 100, format });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    const [first] = result.content;
    const text = first?.type === 'text' ? first.text : '';
    const structured = result.structuredContent ? JSON.stringify(result.structuredContent) : '';
    const events =
      (result.structuredContent?.count as number | undefined) ?? text.match(/events\[(\d+)/)?.[1];
    console.log(
      JSON.stringify({
        format,
        events: Number(events),
        text: size(text),
        structuredContent: size(structured),
        result: size(JSON.stringify(result)),
      }),
    );
  }
  await client.close();
}

await run();
