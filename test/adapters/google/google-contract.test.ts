import { describeCalendarProviderContract } from '../calendar-provider-contract.js';
import { startGoogleFixture } from './google-fixture.js';

describeCalendarProviderContract('GoogleCalendarProvider against the fake Google Calendar', async () => {
  const fixture = await startGoogleFixture();
  return {
    provider: fixture.provider,
    calendar: fixture.primary,
    owner_email: fixture.google.email,
    close: fixture.close,
  };
});
