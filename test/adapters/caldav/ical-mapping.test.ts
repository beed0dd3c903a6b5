import { describe, expect, it } from 'vitest';
import { parseResource } from '../../../lambdas/adapters/caldav/ical-mapping.js';
import { buildResource } from '../../../lambdas/adapters/caldav/ical-resource.js';
import type { CalendarEvent } from '../../../lambdas/core/calendar/event.js';

const context = { calendarId: 'caldav/c1/work', etag: '"v1"' };

function ics(...lines: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
}

const master: CalendarEvent = {
  id: 'series-1',
  calendar_id: 'caldav/c1/work',
  summary: 'Standup',
  start: { date_time: '2026-03-02T09:00:00+01:00', time_zone: 'Europe/Paris' },
  end: { date_time: '2026-03-02T09:15:00+01:00', time_zone: 'Europe/Paris' },
  status: 'confirmed',
  transparency: 'opaque',
  visibility: 'public',
  attendees: [],
  recurrence: ['RRULE:FREQ=DAILY;COUNT=5', 'EXDATE;TZID=Europe/Paris:20260304T090000'],
  etag: '',
};

describe('ical mapping', () => {
  describe('parseResource', () => {
    it('reads DURATION, a non-IANA TZID through its VTIMEZONE, and the EMAIL parameter of an attendee', () => {
      const parsed = parseResource(
        ics(
          'BEGIN:VTIMEZONE',
          'TZID:W. Europe Standard Time',
          'BEGIN:STANDARD',
          'DTSTART:16010101T030000',
          'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
          'TZOFFSETFROM:+0200',
          'TZOFFSETTO:+0100',
          'END:STANDARD',
          'BEGIN:DAYLIGHT',
          'DTSTART:16010101T020000',
          'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0200',
          'END:DAYLIGHT',
          'END:VTIMEZONE',
          'BEGIN:VEVENT',
          'UID:outlook-1',
          'DTSTAMP:20260101T000000Z',
          'DTSTART;TZID=W. Europe Standard Time:20260701T100000',
          'DURATION:PT1H30M',
          'SUMMARY:From Outlook',
          'ATTENDEE;EMAIL=dana@example.com;PARTSTAT=TENTATIVE:urn:uuid:1234',
          'ATTENDEE:urn:uuid:no-address',
          'END:VEVENT',
        ),
        context,
      );

      expect(parsed.master).toMatchObject({
        id: 'outlook-1',
        start: { date_time: '2026-07-01T08:00:00+00:00' },
        end: { date_time: '2026-07-01T09:30:00+00:00' },
        attendees: [{ email: 'dana@example.com', response_status: 'tentative' }],
        etag: '"v1"',
      });
    });

    it('places a floating time in the calendar zone without claiming that zone', () => {
      const parsed = parseResource(
        ics(
          'BEGIN:VEVENT',
          'UID:f',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260310T090000',
          'SUMMARY:x',
          'END:VEVENT',
        ),
        { ...context, zone: 'America/Los_Angeles' },
      );

      expect(parsed.master?.start).toEqual({ date_time: '2026-03-10T09:00:00-07:00' });
      expect(parsed.master?.end).toEqual({ date_time: '2026-03-10T09:00:00-07:00' });
    });

    it('gives an all-day event without DTEND one day (RFC 5545 §3.6.1)', () => {
      const parsed = parseResource(
        ics(
          'BEGIN:VEVENT',
          'UID:d',
          'DTSTAMP:20260101T000000Z',
          'DTSTART;VALUE=DATE:20261231',
          'SUMMARY:NYE',
          'END:VEVENT',
        ),
        context,
      );

      expect(parsed.master?.end).toEqual({ date: '2027-01-01' });
    });

    it('reads overrides as instances of the master, keyed by RECURRENCE-ID', () => {
      const parsed = parseResource(
        ics(
          'BEGIN:VEVENT',
          'UID:s',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260302T080000Z',
          'DTEND:20260302T081500Z',
          'RRULE:FREQ=DAILY;COUNT=5',
          'SUMMARY:Standup',
          'END:VEVENT',
          'BEGIN:VEVENT',
          'UID:s',
          'DTSTAMP:20260101T000000Z',
          'RECURRENCE-ID:20260303T080000Z',
          'DTSTART:20260303T100000Z',
          'DTEND:20260303T101500Z',
          'SUMMARY:Standup (late)',
          'END:VEVENT',
        ),
        context,
      );

      expect(parsed.master?.recurrence).toEqual(['RRULE:FREQ=DAILY;COUNT=5']);
      expect(parsed.overrides).toEqual([
        expect.objectContaining({
          id: 's_20260303T080000Z',
          recurring_event_id: 's',
          original_start: { date_time: '2026-03-03T08:00:00+00:00' },
          start: { date_time: '2026-03-03T10:00:00+00:00' },
          summary: 'Standup (late)',
        }),
      ]);
    });

    it('ignores alarms it cannot express and reads none as undefined reminders', () => {
      const withAlarms = parseResource(
        ics(
          'BEGIN:VEVENT',
          'UID:a',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260302T080000Z',
          'SUMMARY:x',
          'BEGIN:VALARM',
          'ACTION:AUDIO',
          'TRIGGER:-PT15M',
          'END:VALARM',
          'BEGIN:VALARM',
          'ACTION:DISPLAY',
          'TRIGGER;VALUE=DATE-TIME:20260301T080000Z',
          'DESCRIPTION:absolute',
          'END:VALARM',
          'BEGIN:VALARM',
          'ACTION:DISPLAY',
          'TRIGGER;RELATED=END:-PT5M',
          'DESCRIPTION:before end',
          'END:VALARM',
          'END:VEVENT',
        ),
        context,
      );
      const without = parseResource(
        ics(
          'BEGIN:VEVENT',
          'UID:b',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260302T080000Z',
          'SUMMARY:x',
          'END:VEVENT',
        ),
        context,
      );

      expect(withAlarms.master?.reminders).toEqual({
        use_default: false,
        overrides: [{ method: 'popup', minutes: 15 }],
      });
      expect(without.master?.reminders).toBeUndefined();
    });

    it('reads a COLOR another client set when it is one of the palette names', () => {
      const parsed = parseResource(
        ics(
          'BEGIN:VEVENT',
          'UID:c',
          'DTSTAMP:20260101T000000Z',
          'DTSTART:20260302T080000Z',
          'COLOR:gold',
          'END:VEVENT',
        ),
        context,
      );

      expect(parsed.master?.color_id).toBe('5');
    });

    it('answers PROVIDER_ERROR for text that is not iCalendar', () => {
      expect(() => parseResource('<html>proxy error</html>', context)).toThrow(
        expect.objectContaining({ code: 'PROVIDER_ERROR' }),
      );
    });
  });

  describe('buildResource', () => {
    it('round-trips a series with an override and one VTIMEZONE for the zone it uses', () => {
      const { recurrence: _none, ...single } = master;
      const override: CalendarEvent = {
        ...single,
        id: 'series-1_20260303T080000Z',
        summary: 'Standup (moved)',
        start: { date_time: '2026-03-03T11:00:00+01:00', time_zone: 'Europe/Paris' },
        end: { date_time: '2026-03-03T11:15:00+01:00', time_zone: 'Europe/Paris' },
        recurring_event_id: 'series-1',
        original_start: { date_time: '2026-03-03T09:00:00+01:00', time_zone: 'Europe/Paris' },
      };

      const text = buildResource({ master, overrides: [override] }, undefined, {
        now: new Date('2026-02-01T00:00:00Z'),
      });
      const parsed = parseResource(text, context);

      expect(text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
      expect(text).toContain('RECURRENCE-ID;TZID=Europe/Paris:20260303T090000');
      // A series' events carry tags of their own content, not the resource's ETag (occurrence-etags.ts).
      const { etag: _etag, ...masterFields } = master;
      expect(parsed.master).toMatchObject(masterFields);
      expect(parsed.overrides).toEqual([expect.objectContaining({ ...override, etag: expect.any(String) })]);
      expect(new Set([parsed.master?.etag, parsed.overrides[0]?.etag, '"v1"']).size).toBe(3);
    });

    it('drops overrides no longer in the series and keeps unknown properties of the master', () => {
      const stored = ics(
        'BEGIN:VEVENT',
        'UID:series-1',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20260302T080000Z',
        'RRULE:FREQ=DAILY;COUNT=5',
        'CATEGORIES:Team',
        'SUMMARY:Old',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:series-1',
        'DTSTAMP:20260101T000000Z',
        'RECURRENCE-ID:20260303T080000Z',
        'DTSTART:20260303T100000Z',
        'SUMMARY:gone',
        'END:VEVENT',
      );

      const text = buildResource({ master, overrides: [] }, stored, {
        now: new Date('2026-02-01T00:00:00Z'),
      });

      expect(text).toContain('CATEGORIES:Team');
      expect(text).not.toContain('RECURRENCE-ID');
      expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    });

    it('refuses a recurrence line that is not RRULE/EXDATE/RDATE with INVALID_RRULE', () => {
      const build = () =>
        buildResource({ master: { ...master, recurrence: ['FREQ=DAILY'] }, overrides: [] }, undefined, {
          now: new Date(),
        });

      expect(build).toThrow(expect.objectContaining({ code: 'INVALID_RRULE' }));
    });
  });
});
