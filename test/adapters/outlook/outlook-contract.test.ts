import { needs, OPENSSL } from '../../support/system-parts.js';
import { describeCalendarProviderContract } from '../calendar-provider-contract.js';
import { startOutlookFixture } from './outlook-fixture.js';

describeCalendarProviderContract(
  'OutlookCalendarProvider against the fake Microsoft Graph',
  async () => {
    const fixture = await startOutlookFixture();
    return {
      provider: fixture.provider,
      calendar: fixture.primary,
      owner_email: fixture.graph.email,
      close: fixture.close,
      // Graph has no hourly pattern: FREQ=HOURLY is refused (outlook-calendar-provider.test.ts).
      finestFrequency: 'DAILY',
    };
  },
  needs(OPENSSL),
);
