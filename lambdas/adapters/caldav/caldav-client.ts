import { DAVClient, getBasicAuthHeaders } from 'tsdav';
import { DomainError } from '../../core/errors.js';
import { type GuardOptions, guardedFetch } from './caldav-http.js';

/** How to reach one CalDAV account. */
export interface CalDavConnection extends GuardOptions {
  /** Server root or any URL on it, e.g. `https://dav.example.com/` (principal discovery finds the rest). */
  serverUrl: string;
  username: string;
  password: string;
  /** Replaces global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

/** One calendar object resource as the server holds it. */
export interface StoredObject {
  url: string;
  etag: string;
  data: string;
}

/** A WebDAV collection and the properties the server returned for it (camelCased by tsdav). */
export interface Collection {
  url: string;
  props: Record<string, unknown>;
}

export interface TimeRange {
  /** iCalendar UTC stamps, `YYYYMMDDTHHMMSSZ`. */
  start: string;
  end: string;
}

const CALENDAR_DATA_PROPS = { 'd:getetag': {}, 'c:calendar-data': {} };

/**
 * A thin layer over tsdav's DAVClient with Basic auth: principal discovery once (lazily), then the
 * handful of WebDAV/CalDAV requests the provider needs, each returning plain data. Failures arrive
 * as DomainErrors from {@link guardedFetch}.
 *
 * @example
 * const client = new CalDavClient({ serverUrl: 'http://127.0.0.1:5232/', username: 'alice', password });
 * const [object] = await client.queryObjects('http://127.0.0.1:5232/alice/work/');
 */
export class CalDavClient {
  private readonly dav: DAVClient;
  private readonly fetch: typeof fetch;
  private readonly authHeaders: Record<string, string>;
  private loggedIn?: Promise<void>;
  private owner?: Promise<string[]>;

  constructor(private readonly connection: CalDavConnection) {
    this.fetch = guardedFetch(connection.fetch ?? globalThis.fetch, connection);
    const credentials = { username: connection.username, password: connection.password };
    this.authHeaders = getBasicAuthHeaders(credentials);
    this.dav = new DAVClient({
      serverUrl: connection.serverUrl,
      credentials,
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
      fetch: this.fetch,
    });
  }

  /** The calendar home collection URL (discovered: well-known → principal → calendar-home-set). */
  async homeUrl(): Promise<string> {
    await this.login();
    const home = this.dav.account?.homeUrl;
    if (!home)
      throw new DomainError(
        'PROVIDER_ERROR',
        'The CalDAV server did not report a calendar home for this account.',
      );
    return home;
  }

  /**
   * The account owner's email addresses, read once per client from the principal's
   * `calendar-user-address-set` (RFC 6638). Servers that list no `mailto:` there (Radicale lists
   * only the principal path) fall back to the user name when it is an address. An attendee with
   * one of these addresses is the calendar's owner.
   */
  ownerAddresses(): Promise<string[]> {
    this.owner ??= this.login()
      .then(() => this.dav.fetchCalendarUserAddresses({ account: this.dav.account! }))
      .then(
        (hrefs) => ownerAddressesFrom(hrefs, this.connection.username),
        () => {
          // A failed read (network, a server without the property) is asked again next time.
          this.owner = undefined;
          return ownerAddressesFrom([], this.connection.username);
        },
      );
    return this.owner;
  }

  /**
   * PROPFIND on the calendar home (Depth 1) or one collection (Depth 0). One request: tsdav's
   * fetchCalendars would add a supported-report-set REPORT per calendar.
   */
  async collections(props: Record<string, unknown>, url?: string): Promise<Collection[]> {
    const target = url ?? (await this.homeUrl());
    await this.login();
    const responses = await this.dav.propfind({ url: target, props, depth: url ? '0' : '1' });
    return responses.flatMap((r) =>
      r.href && r.ok ? [{ url: new URL(r.href, target).href, props: r.props ?? {} }] : [],
    );
  }

  /** MKCALENDAR with `d:`/`c:`-prefixed props (tsdav sends them verbatim). */
  async makeCalendar(url: string, props: Record<string, unknown>): Promise<void> {
    await this.login();
    const [response] = await this.dav.makeCalendar({ url, props });
    if (response && !response.ok) {
      throw new DomainError(
        'PROVIDER_ERROR',
        `The CalDAV server refused to create the calendar (HTTP ${response.status}).`,
      );
    }
  }

  /** GET one object; NOT_FOUND when it does not exist. */
  async getObject(url: string): Promise<StoredObject> {
    const response = await this.fetch(url, { method: 'GET', headers: this.authHeaders });
    const data = await response.text();
    return { url: response.url || url, etag: response.headers.get('etag') ?? '', data };
  }

  /**
   * PUT an object. `ifMatch` guards an update (412 → STALE_WRITE); without it the PUT only
   * creates (`If-None-Match: *`), so it never overwrites a resource it did not read.
   */
  async putObject(url: string, data: string, ifMatch?: string): Promise<void> {
    const condition: Record<string, string> = ifMatch ? { 'If-Match': ifMatch } : { 'If-None-Match': '*' };
    await this.fetch(url, {
      method: 'PUT',
      body: data,
      headers: { ...this.authHeaders, ...condition, 'Content-Type': 'text/calendar; charset=utf-8' },
    });
  }

  async deleteObject(url: string, ifMatch?: string): Promise<void> {
    await this.fetch(url, {
      method: 'DELETE',
      headers: { ...this.authHeaders, ...(ifMatch ? { 'If-Match': ifMatch } : {}) },
    });
  }

  /** calendar-query REPORT for VEVENT objects, optionally overlapping a time range (RFC 4791 §9.9). */
  async queryObjects(calendarUrl: string, range?: TimeRange): Promise<StoredObject[]> {
    const timeRange = range ? { 'c:time-range': { _attributes: range } } : {};
    return this.query(calendarUrl, { 'c:comp-filter': { _attributes: { name: 'VEVENT' }, ...timeRange } });
  }

  /**
   * Objects whose VEVENT UID contains `uid` (text-match is a substring match: the caller checks
   * for equality). Other clients name their files as they like, so `<uid>.ics` is not guaranteed.
   */
  async findByUid(calendarUrl: string, uid: string): Promise<StoredObject[]> {
    const match = { 'c:text-match': { _attributes: { collation: 'i;octet' }, _text: uid } };
    return this.query(calendarUrl, {
      'c:comp-filter': {
        _attributes: { name: 'VEVENT' },
        'c:prop-filter': { _attributes: { name: 'UID' }, ...match },
      },
    });
  }

  private async query(calendarUrl: string, veventFilter: Record<string, unknown>): Promise<StoredObject[]> {
    await this.login();
    const responses = await this.dav.calendarQuery({
      url: calendarUrl,
      props: CALENDAR_DATA_PROPS,
      filters: { 'c:comp-filter': { _attributes: { name: 'VCALENDAR' }, ...veventFilter } },
      depth: '1',
    });
    return responses.flatMap((response) => {
      const data = response.props?.calendarData;
      const text = typeof data === 'string' ? data : (data as { _cdata?: string } | undefined)?._cdata;
      if (!response.href || typeof text !== 'string') return [];
      return [
        {
          url: new URL(response.href, calendarUrl).href,
          etag: String(response.props?.getetag ?? ''),
          data: text,
        },
      ];
    });
  }

  private login(): Promise<void> {
    // One discovery per client; a failed one is forgotten so that the next call retries it.
    this.loggedIn ??= this.dav.login().catch((error: unknown) => {
      this.loggedIn = undefined;
      throw error;
    });
    return this.loggedIn;
  }

  /** The account's user name, for messages and an ORGANIZER address when it is an email. */
  get username(): string {
    return this.connection.username;
  }
}

/**
 * The `mailto:` entries of a calendar-user-address-set as addresses, else the user name when it
 * is an email address, else none.
 *
 * @example
 * ownerAddressesFrom(['mailto:ann@example.com', '/ann/'], 'ann'); // ['ann@example.com']
 * ownerAddressesFrom(['/ann%40example.com/'], 'ann@example.com'); // ['ann@example.com']
 */
export function ownerAddressesFrom(hrefs: readonly string[], username: string): string[] {
  const mailto = hrefs.flatMap((href) => {
    const match = /^mailto:(.+)$/i.exec(href.trim());
    return match ? [decodeURIComponent(match[1]!)] : [];
  });
  if (mailto.length > 0) return mailto;
  return username.includes('@') ? [username] : [];
}
