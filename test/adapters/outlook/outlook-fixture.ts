import { OutlookCalendarProvider } from '../../../lambdas/adapters/outlook/outlook-calendar-provider.js';
import { MsalTokenSource } from '../../../lambdas/adapters/outlook/outlook-tokens.js';
import type { CalendarRef } from '../../../lambdas/core/ports/index.js';
import { type FakeGraph, type FakeGraphOptions, startFakeGraph } from '../../support/fake-graph.js';

export const PREFIX = 'outlook/test-connection/';

/** A provider wired to a fresh fake Graph: MSAL against the fake identity platform, 1 ms backoff. */
export interface OutlookFixture {
  graph: FakeGraph;
  provider: OutlookCalendarProvider;
  /** The mailbox's default calendar, in America/New_York. */
  primary: CalendarRef;
  /** Pauses the Graph client asked for (instead of sleeping them). */
  pauses: number[];
  close(): Promise<void>;
}

export async function startOutlookFixture(
  options: FakeGraphOptions & { maxAttempts?: number } = {},
): Promise<OutlookFixture> {
  const graph = await startFakeGraph(options);
  const pauses: number[] = [];
  const tokens = new MsalTokenSource(
    { clientId: graph.identity.clientId, authority: graph.identity.authority },
    graph.identity.issueRefreshToken(),
  );
  const provider = new OutlookCalendarProvider({
    tokens,
    calendarPrefix: PREFIX,
    accountEmail: graph.email,
    graphRoot: graph.root,
    retry: {
      baseDelayMs: 1,
      maxAttempts: options.maxAttempts ?? 5,
      sleep: async (ms) => {
        pauses.push(ms);
      },
    },
  });
  const primary = provider.calendarRef({ native_id: graph.defaultCalendarId, time_zone: 'America/New_York' });
  return { graph, provider, primary, pauses, close: () => graph.close() };
}
