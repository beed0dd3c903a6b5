import type { CalendarRecord } from '../core/calendar/calendar-registry.js';
import { once } from '../core/once.js';
import { type DocumentStore, systemClock } from '../core/ports/index.js';
import { configuredTimezone, requiredEnv } from './aws-environment.js';
import { kmsEnvelope } from './aws-kms-envelope.js';
import { DATA_KEY_ARN_ENV } from './environment-names.js';
import { nodeRandom } from './node-random.js';

/**
 * Calendars reached by their record — each record's provider and the shadow calendar
 * (compose-providers.ts) — loaded on the first call that reaches one, for the functions whose
 * first event may need none: a booking step on a native calendar, a sync run with no connected
 * calendar. Until then the function has loaded no provider, recurrence or shadow code. The graph
 * reuses the caller's document store; secrets are decrypted with the deployment's KMS key.
 *
 * @example
 * const calendars = lazyAwsCalendars(process.env, store);
 * const { provider, ref } = await calendars.providerFor(record); // loads the graph once
 */
export function lazyAwsCalendars(env: NodeJS.ProcessEnv, store: DocumentStore) {
  // Only what calendars need of the platform: not awsPlatform, whose memory, embedding and
  // sync-target settings these functions never use (the caller checked the configuration).
  const graph = once(async () => {
    const [{ composeProviders }, { providerFactories }] = await Promise.all([
      import('./compose-providers.js'),
      import('./provider-factories.js'),
    ]);
    return composeProviders({
      store,
      encryption: kmsEnvelope(requiredEnv(env, DATA_KEY_ARN_ENV)),
      clock: systemClock,
      random: nodeRandom,
      defaultTimezone: configuredTimezone(env),
      factories: providerFactories(env),
    });
  });
  return {
    providerFor: async (record: CalendarRecord) => (await graph()).calendars.providerFor(record),
    shadow: async () => (await graph()).shadow,
  };
}
