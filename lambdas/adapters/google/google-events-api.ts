import { randomBytes } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import { DomainError, isDomainError } from '../../core/errors.js';
import type { GoogleCall } from './google-call.js';
import type { GoogleEvent } from './google-mapping.js';

/**
 * The raw event operations on one Google calendar, with Meridian's failure policy applied
 * (see google-call.ts). Results stay in Google's shape; mapping happens in the provider.
 */
export class GoogleEventsApi {
  constructor(
    private readonly api: calendar_v3.Calendar,
    private readonly call: GoogleCall,
    private readonly calendarId: string,
  ) {}

  /** The event or instance; a cancelled one counts as missing (Google keeps deleted events readable). */
  async get(eventId: string): Promise<GoogleEvent> {
    const subject = `Event "${eventId}"`;
    const event = await this.call(
      () => this.api.events.get({ calendarId: this.calendarId, eventId }),
      subject,
    );
    if (event.status === 'cancelled') {
      throw new DomainError('NOT_FOUND', `${subject} was not found in Google Calendar (it was deleted).`, {
        status: 200,
        reason: 'cancelled',
      });
    }
    return event;
  }

  /**
   * Inserts with an id chosen here, so that a retry after a lost response cannot create a twin:
   * the retry gets 409 "duplicate" and the first write is read back instead.
   */
  async insert(body: GoogleEvent): Promise<GoogleEvent> {
    const id = newEventId();
    const sendUpdates = body.attendees?.length ? 'all' : 'none';
    try {
      return await this.call(() =>
        this.api.events.insert({ calendarId: this.calendarId, sendUpdates, requestBody: { ...body, id } }),
      );
    } catch (error) {
      if (isDomainError(error) && error.details.status === 409) return this.get(id);
      throw error;
    }
  }

  /** Patches with Google's semantics; `ifMatch` becomes an If-Match header (412 → STALE_WRITE). */
  async patch(eventId: string, body: GoogleEvent, ifMatch?: string): Promise<GoogleEvent> {
    return this.call(
      () =>
        this.api.events.patch(
          // Guests hear about changes to a meeting they are invited to; without guests this sends nothing.
          { calendarId: this.calendarId, eventId, sendUpdates: 'all', requestBody: body },
          { headers: ifMatch ? { 'If-Match': ifMatch } : {} },
        ),
      `Event "${eventId}"`,
    );
  }

  async delete(eventId: string, ifMatch?: string): Promise<void> {
    await this.call(
      () =>
        this.api.events.delete(
          { calendarId: this.calendarId, eventId, sendUpdates: 'all' },
          { headers: ifMatch ? { 'If-Match': ifMatch } : {} },
        ),
      `Event "${eventId}"`,
    );
  }

  /** Every instance of a series, cancelled ones included (they still count towards COUNT). */
  async allInstances(seriesId: string): Promise<GoogleEvent[]> {
    const instances: GoogleEvent[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.call(
        () =>
          this.api.events.instances({
            calendarId: this.calendarId,
            eventId: seriesId,
            showDeleted: true,
            maxResults: 2500,
            pageToken,
          }),
        `Event "${seriesId}"`,
      );
      instances.push(...(page.items ?? []));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    return instances;
  }
}

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/**
 * A Google-valid event id: 26 base32hex characters from 128 random bits (hand-rolled because
 * Node's encoders have no base32hex; Google accepts only a-v and 0-9 in client-chosen ids).
 */
export function newEventId(): string {
  const bytes = randomBytes(16);
  let bits = 0;
  let value = 0;
  let id = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      id += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? id + BASE32HEX[(value << (5 - bits)) & 31] : id;
}
