import { afterEach, beforeEach, describe } from 'vitest';
import { describeSingleEventContract } from '../calendar-provider-contract-events.js';
import type { ContractSubject } from '../calendar-provider-contract-support.js';
import { startOutlookFixture } from './outlook-fixture.js';

/**
 * The shared CalendarProvider contract against the fake Microsoft Graph. The series part
 * (describeSeriesContract) joins once graph-recurrence.ts (branch outlook-recurrence) converts
 * RRULEs; then this file becomes one describeCalendarProviderContract call like Google's.
 */
describe('OutlookCalendarProvider against the fake Microsoft Graph (CalendarProvider contract)', () => {
  let subject: ContractSubject;
  beforeEach(async () => {
    const fixture = await startOutlookFixture();
    subject = { provider: fixture.provider, calendar: fixture.primary, close: fixture.close };
  });
  afterEach(async () => {
    await subject.close();
  });

  describeSingleEventContract(() => subject);
});
