import type { CalendarProvider } from './calendar-provider.js';

/**
 * Builds the provider for a connection (decrypting its secret); `native` for Meridian's own
 * calendars. The runtime implements it (runtime/provider-resolver.ts), since only it knows which
 * provider adapters exist.
 */
export interface ProviderResolver {
  forConnection(connectionId: string): Promise<CalendarProvider>;
}
