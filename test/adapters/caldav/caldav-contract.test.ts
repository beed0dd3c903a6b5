import { afterAll, beforeAll, describe } from 'vitest';
import { type RadicaleServer, startRadicale } from '../../support/radicale.js';
import { needs, RADICALE } from '../../support/system-parts.js';
import { describeCalendarProviderContract } from '../calendar-provider-contract.js';
import { PASSWORD, providerFor, USER } from './caldav-test-kit.js';

let radicale: RadicaleServer;

// One Radicale for the file; every contract test gets a fresh, empty calendar on it.
beforeAll(async () => {
  radicale = await startRadicale({ [USER]: PASSWORD });
});

afterAll(async () => {
  await radicale?.stop();
});

describe('with Radicale', needs(RADICALE), () => {
  describeCalendarProviderContract('CalDavCalendarProvider against Radicale', async () => {
    const provider = providerFor(radicale);
    const calendar = provider.calendarRef(await provider.createCalendar({ name: 'Contract' }));
    return { provider, calendar, owner_email: USER, close: async () => undefined };
  });
});
