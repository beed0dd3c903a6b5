import type { AccessStore } from '../access/access-store.js';
import { calendarResource, grantAllows, type Principal, type Right } from '../access/rights.js';
import { compareAndSet } from '../compare-and-set.js';
import { mapWithConcurrency } from '../concurrency.js';
import { DomainError, isDomainError } from '../errors.js';
import { once } from '../once.js';
import type {
  CalendarProvider,
  CalendarRef,
  Clock,
  EventPage,
  EventQuery,
  ProviderResolver,
  RandomSource,
} from '../ports/index.js';
import type { AttendeeInput } from './attendee-responses.js';
import type { CalendarRecord, CalendarRegistry } from './calendar-registry.js';
import { calendarZone, serverZone } from './calendar-zone.js';
import type { Attendee, CalendarEvent, EditScope, EventDraft, EventPatch } from './event.js';
import type { EventTimeInput, WithTimeInputs } from './event-time.js';
import type { EventView } from './event-view.js';
import { type NativeEventsReader, readNativeBeside } from './native/native-page-beside.js';
import { isNativeCalendarId, nativeCalendarId } from './native-calendar-id.js';
import { removeOrphanCalendarGrants } from './orphan-grants.js';
import { providerOfCalendar } from './provider-of-calendar.js';

export interface CalendarServiceDeps {
  registry: CalendarRegistry;
  access: AccessStore;
  providers: ProviderResolver;
  /**
   * The native provider, which reads a native calendar's events beside its record. Called only
   * when a call reaches a native calendar, so that list_calendars loads no provider code.
   */
  native: () => Promise<NativeEventsReader>;
  clock: Clock;
  random: RandomSource;
  defaultTimezone: string | undefined;
}

/** A calendar as list_calendars shows it to one principal. */
export interface CalendarEntry {
  id: string;
  provider: CalendarRecord['provider'];
  name: string;
  label: string | null;
  description?: string;
  time_zone?: string;
  owner_email?: string;
  primary: boolean;
  access_role: CalendarRecord['access_role'];
  can_read: boolean;
  can_write: boolean;
  connection_kind: 'native' | 'oauth' | 'password';
  connection_id: string;
}

export interface BatchItemResult {
  event_id: string;
  ok: boolean;
  event?: EventView;
  error?: { code: string; message: string };
}

/** What manage_attendees did: the event after it, and each requested email's fate. */
export interface AttendeeChange {
  event: EventView;
  added: string[];
  removed: string[];
  /** Requested emails that needed nothing: already invited, or not there to remove. */
  unchanged: string[];
}

/** Emails without repeats, compared case-insensitively, first spelling kept. */
function uniqueEmails(emails: readonly string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((email) => {
    const key = email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A draft or patch as a tool gives it: attendees may come without an answer (kept, or needsAction). */
type WithAttendeeInputs<T> = Omit<T, 'attendees'> & { attendees?: AttendeeInput[] | undefined };

/**
 * The firewall's rules and luxon (calendar-event-code.ts), imported by the first call that reads
 * or writes an event: listing calendars, the most common first call, needs neither.
 */
const eventCode = once(() => import('./calendar-event-code.js'));

/** Writes at once per batch: enough to be quick, few enough to stay under provider rate limits. */
export const BATCH_CONCURRENCY = 10;
export const MAX_BATCH = 50;

/**
 * The calendar operations behind the tools, for one principal at a time: every call checks the
 * grant first, then talks to the provider that holds the calendar.
 */
export class CalendarService {
  constructor(readonly deps: CalendarServiceDeps) {}

  get zone(): string {
    return serverZone(this.deps.defaultTimezone);
  }

  /** Calendars the principal can see (any grant; the local owner sees all), in a stable order. */
  async listCalendars(principal: Principal, provider?: string): Promise<CalendarEntry[]> {
    return (await this.visible(principal, provider)).map(({ entry }) => entry);
  }

  /**
   * The records of every calendar the principal may read, for a listing over all of them. None is
   * FORBIDDEN, not an empty answer: an empty week would read as "free" when the key sees nothing.
   */
  async requireReadableCalendars(principal: Principal): Promise<CalendarRecord[]> {
    const readable = (await this.visible(principal))
      .filter(({ entry }) => entry.can_read)
      .map(({ record }) => record);
    if (readable.length > 0) return readable;
    const [why, fix] =
      principal.kind === 'api-key'
        ? [
            'this key may read no calendar',
            `The owner can grant one (\`npx meridian grants set ${principal.keyId} CALENDAR_ID read\`), or create one with create_calendar.`,
          ]
        : ['there is no calendar yet', 'Create one with create_calendar or connect an account.'];
    throw new DomainError(
      'FORBIDDEN',
      `Nothing was read because ${why}; this is not an empty calendar. ${fix}`,
      { missing_right: 'read' },
    );
  }

  private async visible(
    principal: Principal,
    provider?: string,
  ): Promise<{ record: CalendarRecord; entry: CalendarEntry }[]> {
    const [records, grants, connections] = await Promise.all([
      this.deps.registry.listCalendars(),
      principal.kind === 'api-key'
        ? this.deps.access.rightsOn(principal.keyId, 'calendar')
        : Promise.resolve(undefined),
      this.deps.registry.listConnections(),
    ]);
    const kinds = new Map(connections.map((c) => [c.connection_id, c.connection_kind]));
    const listed = new Set(records.map((record) => record.calendar_id));
    if (principal.kind === 'api-key' && [...(grants?.keys() ?? [])].some((id) => !listed.has(id)))
      await removeOrphanCalendarGrants(this.deps, principal.keyId);
    return records
      .filter((record) => provider === undefined || record.provider === provider)
      .flatMap((record) => {
        const grant = grants === undefined ? 'write' : grants.get(record.calendar_id);
        if (grant === undefined) return [];
        const providerAllowsWrite = record.access_role === 'owner' || record.access_role === 'writer';
        const entry: CalendarEntry = {
          id: record.calendar_id,
          provider: record.provider,
          name: record.name,
          label: record.label,
          ...(record.description ? { description: record.description } : {}),
          ...(record.time_zone ? { time_zone: record.time_zone } : {}),
          ...(record.owner_email ? { owner_email: record.owner_email } : {}),
          primary: record.primary,
          access_role: record.access_role,
          can_read: grantAllows(grant, 'read'),
          can_write: grantAllows(grant, 'write') && providerAllowsWrite,
          connection_kind:
            record.provider === 'native' ? 'native' : (kinds.get(record.connection_id) ?? 'oauth'),
          connection_id: record.connection_id,
        };
        return [{ record, entry }];
      })
      .sort(
        (a, b) => Number(b.entry.primary) - Number(a.entry.primary) || a.entry.id.localeCompare(b.entry.id),
      );
  }

  /**
   * A calendar the principal may read, by id, and — for a native calendar — the first page of
   * its events for `query`, read beside the record (readNativeBeside): one round trip instead of
   * two. `firstPage` is `undefined` for any other calendar; the caller reads it as usual.
   */
  async readableWithFirstPage(
    principal: Principal,
    calendarId: string,
    query: EventQuery,
  ): Promise<{ record: CalendarRecord; firstPage: EventPage | undefined }> {
    await this.requireRight(principal, calendarId, 'read');
    const { record, result } = await this.readBesideRecord(calendarId, (native, nativeId, reference) =>
      native.listEventsBeside(nativeId, reference, query),
    );
    return { record, firstPage: result };
  }

  /**
   * The record of a calendar whose grant has been checked and, for a native calendar, `read` of
   * its events beside it (readNativeBeside). `result` is `undefined` for any other calendar.
   */
  private async readBesideRecord<Result>(
    calendarId: string,
    read: (native: NativeEventsReader, nativeId: string, reference: Promise<CalendarRef>) => Promise<Result>,
  ): Promise<{ record: CalendarRecord; result: Result | undefined }> {
    const recordRead = this.deps.registry.requireCalendar(calendarId);
    // readNativeBeside says the same of such an id, but only after the native provider is loaded.
    if (!isNativeCalendarId(calendarId)) return { record: await recordRead, result: undefined };
    recordRead.catch(() => undefined); // awaited below; the provider's loading comes first
    const native = await this.deps.native();
    return readNativeBeside(calendarId, recordRead, (nativeId, reference) =>
      read(native, nativeId, reference),
    );
  }

  /** Refuses (FORBIDDEN) a principal without `right` on the calendar; reads nothing of it. */
  async requireRight(principal: Principal, calendarId: string, right: Right): Promise<void> {
    await this.deps.access.requireRight(principal, calendarResource(calendarId), right);
  }

  /**
   * The calendar a tool acts on: the given id after checking the right, else the principal's
   * primary calendar with that right, else its only one; otherwise asks for calendar_id.
   */
  async calendarFor(
    principal: Principal,
    calendarId: string | undefined,
    right: Right,
  ): Promise<CalendarRecord> {
    if (calendarId !== undefined) {
      await this.requireRight(principal, calendarId, right);
      return this.deps.registry.requireCalendar(calendarId);
    }
    const usable = (await this.visible(principal)).filter(({ entry }) =>
      right === 'read' ? entry.can_read : entry.can_write,
    );
    const chosen = usable.find(({ entry }) => entry.primary) ?? (usable.length === 1 ? usable[0] : undefined);
    if (!chosen) {
      throw new DomainError(
        'INVALID_INPUT',
        usable.length === 0
          ? `This key has no calendar with ${right} access. Create one with create_calendar, or ask the owner for a grant.`
          : `Say which calendar: pass calendar_id, one of ${usable.map(({ entry }) => `"${entry.id}"`).join(', ')}.`,
        { field: 'calendar_id' },
      );
    }
    return chosen.record;
  }

  /**
   * The patch with its text sanitized and checked by the firewall together with the text the update
   * keeps (an instruction split between a new description and the stored summary is still one).
   */
  private async checkedPatch(
    provider: CalendarProvider,
    ref: CalendarRef,
    eventId: string,
    patch: WithAttendeeInputs<EventPatch>,
  ): Promise<EventPatch> {
    const { checkEventContent, touchesEventText, lacksResponses, withKnownResponses } = await eventCode();
    const needsCurrent = lacksResponses(patch.attendees);
    if (!needsCurrent && !touchesEventText(patch)) return patch as EventPatch;
    const current = await provider.getEvent(ref, eventId);
    const { attendees, ...rest } = patch;
    const complete: EventPatch = {
      ...rest,
      ...(attendees ? { attendees: withKnownResponses(attendees, current.attendees) } : {}),
    };
    return touchesEventText(complete) ? checkEventContent(complete, current) : complete;
  }

  /** A tool's patch with its times resolved in the calendar's zone, attendees as given. */
  private async resolvedPatch(
    patch: WithAttendeeInputs<WithTimeInputs<EventPatch>>,
    record: CalendarRecord,
  ): Promise<WithAttendeeInputs<EventPatch>> {
    const { resolveEventTimes } = await eventCode();
    const { attendees, ...timed } = patch;
    return {
      ...resolveEventTimes<EventPatch>(timed, this.zoneOf(record)),
      ...(attendees ? { attendees } : {}),
    };
  }

  async providerFor(record: CalendarRecord): Promise<{ provider: CalendarProvider; ref: CalendarRef }> {
    return providerOfCalendar(this.deps.providers, record);
  }

  /** The zone a time without offset is read in on this calendar. */
  zoneOf(record: CalendarRecord): string {
    return calendarZone(record, this.deps.defaultTimezone);
  }

  async getEvent(principal: Principal, calendarId: string | undefined, eventId: string): Promise<EventView> {
    const views = eventCode();
    views.catch(() => undefined); // awaited once the event is read
    const { record, event } = await this.readEvent(principal, calendarId, eventId);
    return (await views).calendarReadView(this, record, event);
  }

  /** A readable calendar and one of its events; a native calendar's, asked by id, in one round trip. */
  private async readEvent(
    principal: Principal,
    calendarId: string | undefined,
    eventId: string,
  ): Promise<{ record: CalendarRecord; event: CalendarEvent }> {
    let record: CalendarRecord;
    if (calendarId === undefined) {
      record = await this.calendarFor(principal, undefined, 'read');
    } else {
      await this.requireRight(principal, calendarId, 'read');
      const beside = await this.readBesideRecord(calendarId, (native, nativeId, reference) =>
        native.getEventBeside(nativeId, reference, eventId),
      );
      if (beside.result) return { record: beside.record, event: beside.result };
      record = beside.record;
    }
    const { provider, ref } = await this.providerFor(record);
    return { record, event: await provider.getEvent(ref, eventId) };
  }

  async createEvent(
    principal: Principal,
    calendarId: string | undefined,
    draft: WithAttendeeInputs<WithTimeInputs<EventDraft>> & { start: EventTimeInput; end: EventTimeInput },
  ): Promise<EventView> {
    const record = await this.calendarFor(principal, calendarId, 'write');
    const { checkEventContent, resolveEventTimes, calendarEventView, withKnownResponses } = await eventCode();
    const { attendees, ...fields } = draft;
    const complete = { ...fields, ...(attendees ? { attendees: withKnownResponses(attendees, []) } : {}) };
    // Calendar text is read by other agents later: sanitise it and refuse injected instructions.
    const clean = checkEventContent(resolveEventTimes<EventDraft>(complete, this.zoneOf(record)));
    const { provider, ref } = await this.providerFor(record);
    return calendarEventView(this, record, await provider.createEvent(ref, clean));
  }

  async updateEvent(
    principal: Principal,
    input: {
      calendar_id?: string;
      event_id: string;
      patch: WithAttendeeInputs<WithTimeInputs<EventPatch>>;
      scope: EditScope;
      if_match?: string;
    },
  ): Promise<EventView> {
    const record = await this.calendarFor(principal, input.calendar_id, 'write');
    const patch = await this.resolvedPatch(input.patch, record);
    const { provider, ref } = await this.providerFor(record);
    const checked = await this.checkedPatch(provider, ref, input.event_id, patch);
    const written = await provider.updateEvent(ref, input.event_id, checked, {
      scope: input.scope,
      ...(input.if_match ? { if_match: input.if_match } : {}),
    });
    return (await eventCode()).calendarEventView(this, record, written);
  }

  async deleteEvent(
    principal: Principal,
    input: { calendar_id?: string; event_id: string; scope: EditScope; if_match?: string },
  ): Promise<{ calendar_id: string; event_id: string; scope: EditScope }> {
    const record = await this.calendarFor(principal, input.calendar_id, 'write');
    const { provider, ref } = await this.providerFor(record);
    await provider.deleteEvent(ref, input.event_id, {
      scope: input.scope,
      ...(input.if_match ? { if_match: input.if_match } : {}),
    });
    return { calendar_id: record.calendar_id, event_id: input.event_id, scope: input.scope };
  }

  /**
   * Up to 50 patches, run concurrently; each succeeds or fails on its own and says why. The grant
   * is checked once, before any write.
   */
  async batchUpdate(
    principal: Principal,
    calendarId: string | undefined,
    updates: readonly {
      event_id: string;
      patch: WithAttendeeInputs<WithTimeInputs<EventPatch>>;
      scope: EditScope;
      if_match?: string;
    }[],
  ): Promise<BatchItemResult[]> {
    if (updates.length > MAX_BATCH) {
      throw new DomainError('INVALID_INPUT', `At most ${MAX_BATCH} updates per call; split the batch.`, {
        field: 'updates',
      });
    }
    const record = await this.calendarFor(principal, calendarId, 'write');
    const { provider, ref } = await this.providerFor(record);
    const { calendarEventView } = await eventCode();
    return mapWithConcurrency(updates, BATCH_CONCURRENCY, async (update) => {
      try {
        const patch = await this.checkedPatch(
          provider,
          ref,
          update.event_id,
          await this.resolvedPatch(update.patch, record),
        );
        const written = await provider.updateEvent(ref, update.event_id, patch, {
          scope: update.scope,
          ...(update.if_match ? { if_match: update.if_match } : {}),
        });
        return { event_id: update.event_id, ok: true, event: calendarEventView(this, record, written) };
      } catch (error) {
        if (!isDomainError(error)) throw error;
        return { event_id: update.event_id, ok: false, error: { code: error.code, message: error.message } };
      }
    });
  }

  /**
   * Adds and removes attendees without replacing the list; retries once if the event moved on
   * meanwhile. Reports who was added, who removed, and which requested emails needed nothing
   * (already invited, or not there to remove). When nothing changes, nothing is written: the
   * event and its etag stay as they were.
   */
  async manageAttendees(
    principal: Principal,
    input: { calendar_id?: string; event_id: string; add: string[]; remove: string[] },
  ): Promise<AttendeeChange> {
    const record = await this.calendarFor(principal, input.calendar_id, 'write');
    const { provider, ref } = await this.providerFor(record);
    const { checkEventContent, calendarEventView } = await eventCode();
    const remove = new Set(input.remove.map((email) => email.toLowerCase()));
    // A write that lost to another edit (STALE_WRITE, the provider's etag check) is redone once
    // on the fresh event.
    return compareAndSet(
      async () => {
        const current = await provider.getEvent(ref, input.event_id);
        const invited = new Set(current.attendees.map((a) => a.email.toLowerCase()));
        const kept = current.attendees.filter((a) => !remove.has(a.email.toLowerCase()));
        const removed = current.attendees
          .filter((a) => remove.has(a.email.toLowerCase()))
          .map((a) => a.email);
        const added = uniqueEmails(input.add).filter((email) => !invited.has(email.toLowerCase()));
        const unchanged = uniqueEmails([...input.add, ...input.remove]).filter(
          (email) => !added.includes(email) && !removed.some((r) => r.toLowerCase() === email.toLowerCase()),
        );
        if (added.length === 0 && removed.length === 0) {
          return { event: calendarEventView(this, record, current), added, removed, unchanged };
        }
        const invitations: Attendee[] = added.map((email) => ({ email, response_status: 'needsAction' }));
        const written = await provider.updateEvent(
          ref,
          input.event_id,
          checkEventContent({ attendees: [...kept, ...invitations] }, current),
          { scope: 'this', if_match: current.etag },
        );
        return { event: calendarEventView(this, record, written), added, removed, unchanged };
      },
      { maxAttempts: 2, isLostRace: (error) => isDomainError(error, 'STALE_WRITE') },
    );
  }

  /**
   * Creates a calendar: native by default, or on the account that holds `parentCalendarId`.
   * The new calendar is granted (write) to the creating key only — never to every key.
   */
  async createCalendar(
    principal: Principal,
    input: {
      name: string;
      description?: string;
      time_zone?: string;
      owner_email?: string;
      parent_calendar_id?: string;
    },
  ): Promise<CalendarEntry> {
    const parent = input.parent_calendar_id
      ? await this.calendarFor(principal, input.parent_calendar_id, 'write')
      : undefined;
    if (parent && input.owner_email) {
      throw new DomainError(
        'INVALID_INPUT',
        `owner_email is for native calendars only: ${parent.provider} tells Meridian who owns its calendars. ` +
          'Leave owner_email out, or leave calendar_id out to create a native calendar.',
        { field: 'owner_email' },
      );
    }
    const connectionId = parent?.connection_id ?? NATIVE_CONNECTION_ID;
    const provider = await this.deps.providers.forConnection(connectionId);
    // Calendar names and descriptions are read by every agent that lists calendars.
    const { checkCalendarContent } = await eventCode();
    const text = checkCalendarContent({
      name: input.name,
      ...(input.description ? { description: input.description } : {}),
    });
    const created = await provider.createCalendar({
      ...text,
      ...(input.time_zone ? { time_zone: input.time_zone } : {}),
    });
    const providerKind = parent?.provider ?? 'native';
    const calendarId =
      providerKind === 'native'
        ? nativeCalendarId(created.native_id)
        : `${providerKind}/${connectionId}/${created.native_id}`;
    // The grant first: until the calendar record exists it grants nothing anyone can see, so a
    // crash between the two writes leaves no calendar that its creator cannot reach. What it
    // leaves instead, a grant on nothing, is withdrawn here when the record write fails, and by
    // the key's next listing after a crash (removeOrphanCalendarGrants).
    if (principal.kind === 'api-key')
      await this.deps.access.setGrant(principal.keyId, calendarResource(calendarId), 'write');
    await this.putNewCalendar(principal, {
      calendar_id: calendarId,
      provider: providerKind,
      connection_id: connectionId,
      native_id: created.native_id,
      name: created.name,
      label: null,
      ...(created.description ? { description: created.description } : {}),
      ...(created.time_zone ? { time_zone: created.time_zone } : {}),
      ...(input.owner_email ? { owner_email: input.owner_email } : {}),
      primary: false,
      access_role: created.access_role,
      created_at: this.deps.clock.now().toISOString(),
    });
    const entry = (await this.listCalendars(principal)).find((c) => c.id === calendarId);
    if (!entry) throw new Error(`calendar ${calendarId} vanished after creation`);
    return entry;
  }

  /** Writes a new calendar's record; if that fails, withdraws the creator's grant on it. */
  private async putNewCalendar(principal: Principal, record: CalendarRecord): Promise<void> {
    try {
      await this.deps.registry.putCalendar(record);
    } catch (error) {
      if (principal.kind === 'api-key') {
        await this.deps.access
          .setGrant(principal.keyId, calendarResource(record.calendar_id), 'none')
          // The record write's failure is the one to report; a grant left here is swept later.
          .catch(() => undefined);
      }
      throw error;
    }
  }
}

/** The connection every native calendar's record names (runtime/provider-resolver.ts). */
const NATIVE_CONNECTION_ID = 'native';
