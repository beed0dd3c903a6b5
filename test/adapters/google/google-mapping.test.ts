import { describe, expect, it } from 'vitest';
import {
  toCalendarEvent,
  toEventTime,
  toGoogleEvent,
  toProviderCalendar,
} from '../../../lambdas/adapters/google/google-mapping.js';

const REF = { native_id: 'alice@example.com', calendar_id: 'google/c1/alice@example.com' };

describe('google-mapping', () => {
  describe('toEventTime', () => {
    it('renders a UTC dateTime in the event’s zone, with an offset', () => {
      expect(toEventTime({ dateTime: '2026-07-01T13:00:00Z', timeZone: 'Europe/Paris' })).toEqual({
        date_time: '2026-07-01T15:00:00+02:00',
        time_zone: 'Europe/Paris',
      });
    });

    it('keeps the written offset when Google gives no zone, never rendering Z', () => {
      expect(toEventTime({ dateTime: '2026-07-01T13:00:00Z' })).toEqual({
        date_time: '2026-07-01T13:00:00+00:00',
      });
      expect(toEventTime({ dateTime: '2026-07-01T09:00:00-04:00' })).toEqual({
        date_time: '2026-07-01T09:00:00-04:00',
      });
    });

    it('maps an all-day date as is', () => {
      expect(toEventTime({ date: '2026-07-01' })).toEqual({ date: '2026-07-01' });
    });
  });

  describe('toCalendarEvent', () => {
    it('fills Google’s omitted defaults', () => {
      const event = toCalendarEvent(
        {
          id: 'abc',
          etag: '"1"',
          start: { date: '2026-07-01' },
          end: { date: '2026-07-02' },
          attendees: [{ email: 'bob@example.com' }, { displayName: 'No email' }],
          reminders: {
            useDefault: false,
            overrides: [
              { method: 'sms', minutes: 5 },
              { method: 'email', minutes: 60 },
            ],
          },
        },
        REF,
      );

      expect(event).toMatchObject({
        id: 'abc',
        calendar_id: REF.calendar_id,
        summary: '',
        status: 'confirmed',
        transparency: 'opaque',
        visibility: 'default',
        attendees: [{ email: 'bob@example.com', response_status: 'needsAction' }],
        reminders: { use_default: false, overrides: [{ method: 'email', minutes: 60 }] },
        etag: '"1"',
      });
    });

    it('carries series bookkeeping of an instance', () => {
      const event = toCalendarEvent(
        {
          id: 'abc_20260302T140000Z',
          recurringEventId: 'abc',
          originalStartTime: { dateTime: '2026-03-02T14:00:00Z', timeZone: 'America/New_York' },
          start: { dateTime: '2026-03-02T15:00:00Z', timeZone: 'America/New_York' },
          end: { dateTime: '2026-03-02T16:00:00Z', timeZone: 'America/New_York' },
        },
        REF,
      );

      expect(event.recurring_event_id).toBe('abc');
      expect(event.original_start).toEqual({
        date_time: '2026-03-02T09:00:00-05:00',
        time_zone: 'America/New_York',
      });
      expect(event.start).toEqual({ date_time: '2026-03-02T10:00:00-05:00', time_zone: 'America/New_York' });
    });
  });

  describe('toGoogleEvent', () => {
    it('sends only the fields present', () => {
      expect(toGoogleEvent({ summary: 'Standup', color_id: '5' })).toEqual({
        summary: 'Standup',
        colorId: '5',
      });
    });

    it('clears the other time variant so a patch can switch all-day and timed', () => {
      expect(toGoogleEvent({ start: { date: '2026-07-01' } }).start).toEqual({
        date: '2026-07-01',
        dateTime: null,
        timeZone: null,
      });
      expect(toGoogleEvent({ start: { date_time: '2026-07-01T09:00:00-04:00' } }).start).toEqual({
        dateTime: '2026-07-01T09:00:00-04:00',
        timeZone: null,
        date: null,
      });
    });

    it('gives a recurring timed event the calendar’s zone when the caller gave none', () => {
      const body = toGoogleEvent(
        {
          start: { date_time: '2026-07-01T09:00:00-04:00' },
          end: { date_time: '2026-07-01T10:00:00-04:00' },
          recurrence: ['RRULE:FREQ=DAILY'],
        },
        'America/New_York',
      );

      expect(body.start?.timeZone).toBe('America/New_York');
      expect(body.end?.timeZone).toBe('America/New_York');
    });

    it('clears earlier reminder overrides when switching to the defaults', () => {
      expect(toGoogleEvent({ reminders: { use_default: true } }).reminders).toEqual({
        useDefault: true,
        overrides: [],
      });
    });
  });

  describe('toProviderCalendar', () => {
    it('prefers the user’s own name for a calendar and reads unknown roles as reader', () => {
      expect(
        toProviderCalendar({
          id: 'x@group.calendar.google.com',
          summary: 'Team',
          summaryOverride: 'My team',
          accessRole: 'none',
        }),
      ).toEqual({
        native_id: 'x@group.calendar.google.com',
        name: 'My team',
        primary: false,
        access_role: 'reader',
      });
    });
  });
});
