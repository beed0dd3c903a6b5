import { NativeCalendarProvider } from '../../../../lambdas/core/calendar/native/native-calendar-provider.js';
import { describeCalendarProviderContract } from '../../../adapters/calendar-provider-contract.js';
import { startTestRuntime } from '../../../support/test-runtime.js';

/** Native calendars know their owner only from the address given when the calendar was made. */
const OWNER = 'owner@example.com';

/** The provider contract for native calendars on the DynamoDB engine at `endpoint()`. */
export function describeNativeContract(engine: string, endpoint: () => string): void {
  describeCalendarProviderContract(`NativeCalendarProvider on ${engine}`, async () => {
    const runtime = await startTestRuntime({ endpoint: endpoint() });
    const provider = new NativeCalendarProvider({
      store: runtime.store,
      clock: runtime.clock,
      random: runtime.random,
    });
    const created = await provider.createCalendar({ name: 'Contract', time_zone: 'America/New_York' });
    return {
      provider,
      calendar: {
        native_id: created.native_id,
        calendar_id: `native/${created.native_id}`,
        time_zone: 'America/New_York',
        owner_email: OWNER,
      },
      owner_email: OWNER,
      close: () => runtime.close(),
    };
  });
}
