import {
  CalDavCalendarProvider,
  type CalDavProviderOptions,
} from '../../../lambdas/adapters/caldav/caldav-calendar-provider.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import type { RadicaleServer } from '../../support/radicale.js';

export const USER = 'alice@example.com';
export const PASSWORD = 'correct horse battery staple';

/** A provider for `USER` on a running Radicale, with fast retries. */
export function providerFor(
  radicale: RadicaleServer,
  overrides: Partial<CalDavProviderOptions> = {},
): CalDavCalendarProvider {
  return new CalDavCalendarProvider({
    serverUrl: radicale.url,
    username: USER,
    password: PASSWORD,
    calendarPrefix: 'caldav/conn1/',
    retryDelayMs: 0,
    ...overrides,
  });
}

/** A fresh calendar per test, so tests never see each other's events. */
export async function freshCalendar(
  provider: CalDavCalendarProvider,
  timeZone?: string,
): Promise<CalendarRef> {
  const calendar = await provider.createCalendar({
    name: 'Test',
    ...(timeZone ? { time_zone: timeZone } : {}),
  });
  return provider.calendarRef(calendar);
}

/** Basic-auth fetch straight to Radicale, to look at what the adapter stored. */
export async function rawGet(radicale: RadicaleServer, path: string): Promise<Response> {
  return fetch(new URL(path, radicale.url), {
    headers: { Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` },
  });
}

export async function rawPut(radicale: RadicaleServer, path: string, body: string): Promise<Response> {
  return fetch(new URL(path, radicale.url), {
    method: 'PUT',
    body,
    headers: {
      Authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
      'Content-Type': 'text/calendar; charset=utf-8',
    },
  });
}
