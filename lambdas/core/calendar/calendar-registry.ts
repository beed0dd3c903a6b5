import * as z from 'zod';
import { DomainError } from '../errors.js';
import { echo } from '../input-limits.js';
import type { DocumentStore } from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import { CONNECTED_PROVIDERS, ProviderKind } from './provider-kind.js';

/** A calendar Meridian knows about, whatever provider holds it. */
export const CalendarRecord = z.object({
  /** Provider-prefixed id: `native/<uuid>`, `google/<connection>/<google id>`, `caldav/<connection>/<name>`. */
  calendar_id: z.string(),
  provider: ProviderKind,
  /** `native` for Meridian's own calendars. */
  connection_id: z.string(),
  /** Id inside the provider. */
  native_id: z.string(),
  name: z.string(),
  label: z.string().nullable(),
  description: z.string().optional(),
  time_zone: z.string().optional(),
  /**
   * Native calendars: whose calendar it is. Their answer on an event (an attendee with this
   * address) is the calendar's: an event they declined does not block time. Google and CalDAV
   * report the owner themselves.
   */
  owner_email: z.string().email().optional(),
  primary: z.boolean(),
  access_role: z.enum(['owner', 'writer', 'reader', 'freeBusyReader']),
  created_at: z.string(),
});
export type CalendarRecord = z.infer<typeof CalendarRecord>;

/** A connected provider account. The secret is stored only as envelope-encrypted bytes. */
export const ConnectionRecord = z.object({
  connection_id: z.string(),
  provider: z.enum(CONNECTED_PROVIDERS),
  connection_kind: z.enum(['oauth', 'password']),
  account: z.string(),
  label: z.string().nullable(),
  /** CalDAV server URL; absent for Google. */
  server_url: z.string().optional(),
  /** base64 of the Encryption SDK message holding the refresh token or password. */
  secret_ciphertext: z.string(),
  created_at: z.string(),
});
export type ConnectionRecord = z.infer<typeof ConnectionRecord>;

const calendarKey = (calendarId: string) => ({
  pk: `${PK_PREFIX.calendar}${calendarId}`,
  sk: SK.calendar.record,
});
const connectionKey = (connectionId: string) => ({
  pk: `${PK_PREFIX.connection}${connectionId}`,
  sk: SK.connection.record,
});

/**
 * Which calendars and connections exist (see docs/data-model.md). Grants live with the keys
 * (AccessStore); this registry says nothing about who may use what.
 */
export class CalendarRegistry {
  constructor(private readonly store: DocumentStore) {}

  async putCalendar(record: CalendarRecord): Promise<void> {
    await this.store.put({
      ...calendarKey(record.calendar_id),
      gsi1pk: GSI1PK.calendars,
      gsi1sk: record.calendar_id,
      ...CalendarRecord.parse(record),
    });
  }

  async findCalendar(calendarId: string): Promise<CalendarRecord | undefined> {
    const raw = await this.store.get(calendarKey(calendarId), { consistent: true });
    return raw ? CalendarRecord.parse(raw) : undefined;
  }

  /** The calendar, or NOT_FOUND that says how to discover calendars. */
  async requireCalendar(calendarId: string): Promise<CalendarRecord> {
    const record = await this.findCalendar(calendarId);
    if (!record) {
      throw new DomainError(
        'NOT_FOUND',
        `No calendar ${echo(calendarId)}. Call list_calendars for the ids this key can use.`,
        { calendar_id: calendarId },
      );
    }
    return record;
  }

  async listCalendars(): Promise<CalendarRecord[]> {
    const items = await queryAll(this.store, { index: 'gsi1', partition: GSI1PK.calendars });
    return items.map((item) => CalendarRecord.parse(item));
  }

  async deleteCalendar(calendarId: string): Promise<void> {
    await this.store.delete(calendarKey(calendarId));
  }

  async putConnection(record: ConnectionRecord): Promise<void> {
    await this.store.put({
      ...connectionKey(record.connection_id),
      gsi1pk: GSI1PK.connections,
      gsi1sk: record.connection_id,
      ...ConnectionRecord.parse(record),
    });
  }

  async requireConnection(connectionId: string): Promise<ConnectionRecord> {
    const raw = await this.store.get(connectionKey(connectionId), { consistent: true });
    if (!raw)
      throw new DomainError('NOT_FOUND', `No connection "${connectionId}".`, { connection_id: connectionId });
    return ConnectionRecord.parse(raw);
  }

  async listConnections(): Promise<ConnectionRecord[]> {
    const items = await queryAll(this.store, { index: 'gsi1', partition: GSI1PK.connections });
    return items.map((item) => ConnectionRecord.parse(item));
  }
}
