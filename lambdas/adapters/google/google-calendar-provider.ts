import type { calendar_v3 } from '@googleapis/calendar';
import type { OAuth2Client } from 'google-auth-library';
import type { CalendarEvent, EventDraft, EventPatch, ProviderCalendar } from '../../core/calendar/event.js';
import { DomainError } from '../../core/errors.js';
import type {
  CalendarProvider,
  CalendarRef,
  EventPage,
  EventQuery,
  WriteOptions,
} from '../../core/ports/index.js';
import { createGoogleCall, type GoogleCall } from './google-call.js';
import { GoogleEventsApi } from './google-events-api.js';
import { toCalendarEvent, toGoogleEvent, toProviderCalendar } from './google-mapping.js';
import type { RetryOptions } from './google-retry.js';
import { deleteWithScope, updateWithScope } from './google-series-edits.js';
import { type SyncResult, syncCalendar } from './google-sync.js';

export interface GoogleCalendarProviderOptions {
  /** OAuth client holding the client id/secret and the account's refresh token; it refreshes access tokens. */
  auth: OAuth2Client;
  /** Prefix of this connection's calendar ids, e.g. `google/<connection id>/`. */
  calendarPrefix: string;
  /** API root, for tests against a local fake. @default 'https://www.googleapis.com/' */
  rootUrl?: string;
  /** Backoff for rate limits and 5xx. @default 5 attempts, 500 ms base delay */
  retry?: RetryOptions;
}

const MAX_PAGE = 2500;

/**
 * The Google Calendar adapter of the CalendarProvider port, on the official `@googleapis/calendar`
 * client. The client's own retry is off: retries, token refresh on 401 and error mapping follow
 * Meridian's policy (google-call.ts) so they behave the same everywhere and are tested.
 *
 * @example
 * const auth = new OAuth2Client({ clientId, clientSecret });
 * auth.setCredentials({ refresh_token: refreshToken });
 * const google = new GoogleCalendarProvider({ auth, calendarPrefix: 'google/work/' });
 * const [primary] = await google.listCalendars();
 * const page = await google.listEvents(google.calendarRef(primary), { start, end, single_events: true, max_results: 50 });
 */
export class GoogleCalendarProvider implements CalendarProvider {
  private client: Promise<calendar_v3.Calendar> | undefined;
  private readonly call: GoogleCall;

  constructor(private readonly options: GoogleCalendarProviderOptions) {
    this.call = createGoogleCall(options.auth, options.retry ?? {});
  }

  /** The Calendar API client, built on first use (the library is loaded lazily, see google-client-loader.ts). */
  private api(): Promise<calendar_v3.Calendar> {
    this.client ??= import('./google-client-loader.js').then(({ calendar }) => {
      // @googleapis/calendar pins its own copy of google-auth-library (via googleapis-common), so
      // TypeScript sees two declarations of OAuth2Client's private fields; the runtime contract
      // (`request()`) is the same. An npm `overrides` entry deduplicating the copies would drop this cast.
      const auth = this.options.auth as unknown as calendar_v3.Options['auth'];
      return calendar({ version: 'v3', auth, rootUrl: this.options.rootUrl, retry: false });
    });
    return this.client;
  }

  /** The reference the other methods take for a calendar of this connection. */
  calendarRef(calendar: Pick<ProviderCalendar, 'native_id' | 'time_zone'>): CalendarRef {
    return {
      native_id: calendar.native_id,
      calendar_id: this.options.calendarPrefix + calendar.native_id,
      time_zone: calendar.time_zone,
    };
  }

  async listCalendars(): Promise<ProviderCalendar[]> {
    const calendars: ProviderCalendar[] = [];
    let pageToken: string | undefined;
    do {
      const api = await this.api();
      const page = await this.call(() => api.calendarList.list({ maxResults: 250, pageToken }));
      calendars.push(...(page.items ?? []).map(toProviderCalendar));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    return calendars;
  }

  async createCalendar(input: {
    name: string;
    description?: string;
    time_zone?: string;
  }): Promise<ProviderCalendar> {
    const requestBody = { summary: input.name, description: input.description, timeZone: input.time_zone };
    const api = await this.api();
    const created = await this.call(() => api.calendars.insert({ requestBody }));
    // The creator owns a new calendar; calendars.insert does not echo accessRole.
    return toProviderCalendar({ ...created, accessRole: 'owner', primary: false });
  }

  async listEvents(calendar: CalendarRef, query: EventQuery): Promise<EventPage> {
    const api = await this.api();
    const page = await this.call(
      () =>
        api.events.list({
          calendarId: this.nativeId(calendar),
          timeMin: query.start,
          timeMax: query.end,
          singleEvents: query.single_events,
          // Google orders by start only for expanded instances.
          orderBy: query.single_events ? 'startTime' : undefined,
          q: query.query,
          maxResults: Math.min(Math.max(1, query.max_results), MAX_PAGE),
          pageToken: query.page_token,
        }),
      `Calendar "${calendar.calendar_id}"`,
    );
    const events = (page.items ?? []).map((item) => toCalendarEvent(item, calendar));
    return page.nextPageToken ? { events, next_page_token: page.nextPageToken } : { events };
  }

  async getEvent(calendar: CalendarRef, eventId: string): Promise<CalendarEvent> {
    return toCalendarEvent(await (await this.events(calendar)).get(eventId), calendar);
  }

  async createEvent(calendar: CalendarRef, draft: EventDraft): Promise<CalendarEvent> {
    const created = await (await this.events(calendar)).insert(toGoogleEvent(draft, calendar.time_zone));
    return toCalendarEvent(created, calendar);
  }

  async updateEvent(
    calendar: CalendarRef,
    eventId: string,
    patch: EventPatch,
    options: WriteOptions,
  ): Promise<CalendarEvent> {
    const written = await updateWithScope(
      await this.events(calendar),
      eventId,
      patch,
      options,
      calendar.time_zone,
    );
    return toCalendarEvent(written, calendar);
  }

  async deleteEvent(calendar: CalendarRef, eventId: string, options: WriteOptions): Promise<void> {
    await deleteWithScope(await this.events(calendar), eventId, options);
  }

  /**
   * Incremental sync (beyond the port, for the shadow calendar): what changed since `syncToken`,
   * or everything with `full_resync: true` when there is no token or Google expired it (410).
   *
   * @example
   * let state = await google.syncEvents(ref);
   * state = await google.syncEvents(ref, state.next_sync_token);
   */
  async syncEvents(calendar: CalendarRef, syncToken?: string): Promise<SyncResult> {
    return syncCalendar(
      await this.api(),
      this.call,
      { ...calendar, native_id: this.nativeId(calendar) },
      syncToken,
    );
  }

  private async events(calendar: CalendarRef): Promise<GoogleEventsApi> {
    const nativeId = this.nativeId(calendar);
    return new GoogleEventsApi(await this.api(), this.call, nativeId);
  }

  /** Refuses a calendar of another connection: its id would name a calendar of the wrong account. */
  private nativeId(calendar: CalendarRef): string {
    if (!calendar.calendar_id.startsWith(this.options.calendarPrefix)) {
      throw new DomainError(
        'INVALID_INPUT',
        `Calendar "${calendar.calendar_id}" does not belong to this Google connection (${this.options.calendarPrefix}…). List calendars to get its id.`,
      );
    }
    return calendar.native_id;
  }
}
