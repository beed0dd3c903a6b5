import { afterEach, beforeEach, describe } from 'vitest';
import { describeSingleEventContract } from './calendar-provider-contract-events.js';
import { describeOccurrenceEtagContract } from './calendar-provider-contract-occurrence-etags.js';
import { describeAttendeeResponseContract } from './calendar-provider-contract-responses.js';
import { describeSeriesContract } from './calendar-provider-contract-series.js';
import type { ContractSubject } from './calendar-provider-contract-support.js';

/**
 * Behaviour every CalendarProvider (native, CalDAV, Google) must share, run against each one.
 * Provider-neutral on purpose: ids are only compared with ids the provider returned, times are
 * compared as instants, and nothing assumes a provider's id or etag format.
 */

export type { ContractSubject } from './calendar-provider-contract-support.js';

/**
 * Registers the contract suite. `setup` runs before each test and must give an empty calendar;
 * `close` runs after it.
 *
 * @example
 * describeCalendarProviderContract('GoogleCalendarProvider', async () => {
 *   const fixture = await startGoogleFixture();
 *   return { provider: fixture.provider, calendar: fixture.primary, close: fixture.close };
 * });
 */
export function describeCalendarProviderContract(
  label: string,
  setup: () => Promise<ContractSubject>,
  /** Vitest's describe options: `needs(…)` when the subject runs on a program npm does not install. */
  options: { skip?: boolean } = {},
): void {
  describe(`${label} (CalendarProvider contract)`, options, () => {
    let subject: ContractSubject;
    beforeEach(async () => {
      subject = await setup();
    });
    afterEach(async () => {
      await subject.close();
    });

    describeSingleEventContract(() => subject);
    describeSeriesContract(() => subject);
    describeOccurrenceEtagContract(() => subject);
    describeAttendeeResponseContract(() => subject);
  });
}
