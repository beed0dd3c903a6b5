import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { callTool, errorOf, type ToolOutput as Json, okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime } from '../../support/test-runtime.js';

/** What the write tools answer: compact receipts by default, the whole event on request. */
describe('write tools answer compactly', () => {
  let served: ServedRuntime;
  let agent: Client;
  let calendarId: string;
  const ny = 'America/New_York';
  const at = (local: string) => ({ date_time: local, time_zone: ny });

  beforeAll(async () => {
    served = await serveRuntime(
      await startTestRuntime({ clock: fixedClock('2026-03-02T13:00:00Z'), defaultTimezone: ny }),
    );
    agent = (await served.connect('agent')).client;
    calendarId = (await call('create_calendar', { summary: 'Work', time_zone: ny })).calendar_id;
  });

  afterAll(() => served?.close());

  const raw = (name: string, args: Json) => callTool(agent, name, args);
  const call = (name: string, args: Json) => okTool(agent, name, args);
  const create = (summary: string, day: string, extra: Json = {}) =>
    call('create_event', {
      calendar_id: calendarId,
      summary,
      start: at(`2026-03-${day}T10:00:00-05:00`),
      end: at(`2026-03-${day}T11:00:00-05:00`),
      ...extra,
    });
  const etagOf = async (eventId: string) =>
    (await call('get_event', { calendar_id: calendarId, event_id: eventId })).event.etag;

  describe('create_event', () => {
    it('answers with the id, calendar and etag only, unless return_event asks for the event', async () => {
      const compact = await create('Plan', '03');
      const full = await create('Plan again', '04', { return_event: true });

      expect(Object.keys(compact).sort()).toEqual(['calendar_id', 'etag', 'event_id']);
      expect(compact).toMatchObject({ calendar_id: calendarId, etag: await etagOf(compact.event_id) });
      expect(full.event).toMatchObject({ id: full.event_id, summary: 'Plan again', etag: full.etag });
    });
  });

  describe('update_event', () => {
    it('reports the fields it changed and the new etag, which a later if_match accepts', async () => {
      const made = await create('Review', '05');

      const updated = await call('update_event', {
        calendar_id: calendarId,
        event_id: made.event_id,
        summary: 'Design review',
        location: 'Room 2',
        if_match: made.etag,
      });
      const stale = await raw('update_event', {
        calendar_id: calendarId,
        event_id: made.event_id,
        location: 'Room 3',
        if_match: made.etag,
      });
      const fresh = await call('update_event', {
        calendar_id: calendarId,
        event_id: made.event_id,
        location: 'Room 3',
        if_match: updated.etag,
      });

      expect(updated.changed.sort()).toEqual(['location', 'summary']);
      expect(updated.etag).not.toBe(made.etag);
      expect(updated.event).toBeUndefined();
      expect(errorOf(stale).code).toBe('STALE_WRITE');
      expect(fresh.changed).toEqual(['location']);
    });
  });

  describe('quick_add_event', () => {
    it('answers with the id, etag and what it understood', async () => {
      const result = await call('quick_add_event', {
        calendar_id: calendarId,
        text: 'Lunch with Ann tomorrow at noon',
      });

      expect(Object.keys(result).sort()).toEqual(['calendar_id', 'etag', 'event_id', 'understood']);
      expect(result.understood).toMatchObject({
        summary: 'Lunch with Ann',
        start: '2026-03-03T12:00:00-05:00',
      });
    });
  });

  describe('manage_attendees', () => {
    it('reports who was added, removed and left unchanged', async () => {
      const made = await create('Sync', '06', { attendees: ['ann@example.com', 'bob@example.com'] });

      const result = await call('manage_attendees', {
        calendar_id: calendarId,
        event_id: made.event_id,
        add_attendees: ['cy@example.com', 'Ann@example.com'],
        remove_attendees: ['bob@example.com', 'zed@example.com'],
      });

      expect(result).toMatchObject({
        added: ['cy@example.com'],
        removed: ['bob@example.com'],
        unchanged: ['Ann@example.com', 'zed@example.com'],
      });
      expect(result.etag).not.toBe(made.etag);
      expect(result.event).toBeUndefined();
    });

    it('writes nothing when nothing changes: the etag stays the same', async () => {
      const made = await create('Retro', '09', { attendees: ['ann@example.com'] });

      const result = await call('manage_attendees', {
        calendar_id: calendarId,
        event_id: made.event_id,
        add_attendees: ['ann@example.com'],
        remove_attendees: ['zed@example.com'],
        return_event: true,
      });

      expect(result).toMatchObject({
        added: [],
        removed: [],
        unchanged: ['ann@example.com', 'zed@example.com'],
      });
      expect(result.etag).toBe(made.etag);
      expect(await etagOf(made.event_id)).toBe(made.etag);
      expect(result.event.attendees.map((a: Json) => a.email)).toEqual(['ann@example.com']);
    });

    it('refuses an email that is both added and removed, naming the field', async () => {
      const made = await create('Demo', '10');

      const result = await raw('manage_attendees', {
        calendar_id: calendarId,
        event_id: made.event_id,
        add_attendees: ['ann@example.com'],
        remove_attendees: ['ANN@example.com'],
      });

      expect(errorOf(result)).toMatchObject({
        code: 'INVALID_INPUT',
        problems: [{ field: 'remove_attendees' }],
      });
    });
  });

  describe('batch_update_events', () => {
    it('gives each success its new etag, and the event only when asked', async () => {
      const made = await create('Chore', '11');

      const compact = await call('batch_update_events', {
        calendar_id: calendarId,
        updates: [
          { event_id: made.event_id, location: 'Home' },
          { event_id: 'missing', summary: 'x' },
        ],
      });
      const etagAfterCompact = await etagOf(made.event_id);
      const full = await call('batch_update_events', {
        calendar_id: calendarId,
        updates: [{ event_id: made.event_id, location: 'Garden' }],
        return_event: true,
      });

      expect(compact).toMatchObject({ succeeded: 1, failed: 1 });
      expect(compact.results[0]).toEqual({ event_id: made.event_id, ok: true, etag: etagAfterCompact });
      expect(etagAfterCompact).not.toBe(made.etag);
      expect(compact.results[1]).toMatchObject({
        event_id: 'missing',
        ok: false,
        error: { code: 'NOT_FOUND' },
      });
      expect(full.results[0].event).toMatchObject({ location: 'Garden', etag: full.results[0].etag });
    });

    it('is an error with the common code when every update fails the same way', async () => {
      const result = await raw('batch_update_events', {
        calendar_id: calendarId,
        updates: [
          { event_id: 'gone-1', summary: 'x' },
          { event_id: 'gone-2', summary: 'y' },
        ],
      });

      const error = errorOf(result);
      expect(error.code).toBe('NOT_FOUND');
      expect(error.failures).toMatchObject([
        { event_id: 'gone-1', code: 'NOT_FOUND' },
        { event_id: 'gone-2', code: 'NOT_FOUND' },
      ]);
    });

    it('is BATCH_FAILED when every update fails for different reasons, and nothing changes', async () => {
      const made = await create('Errand', '12');

      const result = await raw('batch_update_events', {
        calendar_id: calendarId,
        updates: [
          { event_id: made.event_id, summary: 'Errand (moved)', if_match: 'not-the-etag' },
          { event_id: 'gone', summary: 'y' },
        ],
      });

      const error = errorOf(result);
      expect(error.code).toBe('BATCH_FAILED');
      expect((error.failures as Json[]).map((f) => f.code)).toEqual(['STALE_WRITE', 'NOT_FOUND']);
      expect(await etagOf(made.event_id)).toBe(made.etag);
    });
  });
});
