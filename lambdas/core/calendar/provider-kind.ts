import * as z from 'zod';

/**
 * The calendar providers. Apart from the event model (event.ts) because a calendar's record names
 * its provider and is read by functions that never handle an event — the booking steps' Lock,
 * Release and Compensate — and event.ts's schemas cost a cold start several milliseconds to build.
 */
export const PROVIDER_KINDS = ['native', 'google', 'caldav', 'outlook'] as const;
/** The providers reached through a connected account (every kind but native). */
export const CONNECTED_PROVIDERS = ['google', 'caldav', 'outlook'] as const;
export type ConnectedProvider = (typeof CONNECTED_PROVIDERS)[number];
export const ProviderKind = z.enum(PROVIDER_KINDS);
export type ProviderKind = z.infer<typeof ProviderKind>;
