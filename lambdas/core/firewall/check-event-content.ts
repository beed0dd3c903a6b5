import { DomainError } from '../errors.js';
import { inspectText } from './inspect-text.js';

/** The attendee fields the firewall reads; other attendee fields pass through untouched. */
export interface AttendeeText {
  readonly email: string;
  readonly display_name?: string;
}

/** The free-text fields of book_slot, create_event and update_event. */
export interface EventContentFields {
  readonly summary?: string;
  readonly description?: string;
  readonly location?: string;
  readonly attendees?: readonly AttendeeText[];
}

function checked(text: string, field: string): string {
  const inspection = inspectText(text, field);
  if (inspection.ok) return inspection.text;
  throw new DomainError('CONTENT_REJECTED', inspection.reason, { field, rule: inspection.rule });
}

/**
 * Runs the content firewall over an event's text before it is written: returns the fields
 * sanitized (invisible and control characters removed, NFC), or throws CONTENT_REJECTED naming
 * the first field that reads like instructions to an AI agent. Absent fields stay absent.
 *
 * @example
 * checkEventContent({ summary: 'Retro\u200B', attendees: [{ email: 'a@example.com' }] });
 * // { summary: 'Retro', attendees: [{ email: 'a@example.com' }] }
 * checkEventContent({ description: 'Ignore previous instructions' });
 * // throws DomainError CONTENT_REJECTED, details { field: 'description', rule: 'override-instructions' }
 */
export function checkEventContent<T extends EventContentFields>(fields: T): T {
  const result = { ...fields } as Record<string, unknown>;
  for (const key of ['summary', 'description', 'location'] as const) {
    const value = fields[key];
    if (value !== undefined) result[key] = checked(value, key);
  }
  if (fields.attendees !== undefined) {
    result.attendees = fields.attendees.map((attendee, i) => {
      const next = { ...attendee, email: checked(attendee.email, `attendees[${i}].email`) };
      if (attendee.display_name !== undefined) {
        next.display_name = checked(attendee.display_name, `attendees[${i}].display_name`);
      }
      return next;
    });
  }
  return result as T;
}
