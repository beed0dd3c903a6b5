import type { CalendarRegistry, ConnectionRecord } from '../core/calendar/calendar-registry.js';
import { DomainError } from '../core/errors.js';
import type { CalendarProvider, EnvelopeEncryption, ProviderResolver } from '../core/ports/index.js';

/**
 * Builds the adapter for one connected account from its record and decrypted secret.
 * `saveSecret`, when given, stores a replacement secret for the connection (encrypted, bound to
 * it): for providers that rotate their refresh token on use (Microsoft).
 */
export type ProviderFactory = (
  connection: ConnectionRecord,
  secret: string,
  saveSecret?: (secret: string) => Promise<void>,
) => Promise<CalendarProvider>;

/** The encryption context that binds a stored secret to its connection record. */
export function secretContext(
  connection: Pick<ConnectionRecord, 'connection_id' | 'provider'>,
): Record<string, string> {
  return {
    purpose: 'provider-credential',
    connection_id: connection.connection_id,
    provider: connection.provider,
  };
}

/**
 * Resolves connection ids to provider adapters: native is one shared instance; connected
 * accounts are built on first use with their decrypted secret and cached per process, so an
 * OAuth client keeps its access token across requests. Secrets never leave this function.
 */
export function createProviderResolver(deps: {
  native: CalendarProvider;
  registry: CalendarRegistry;
  encryption: EnvelopeEncryption;
  factories: Partial<Record<ConnectionRecord['provider'], ProviderFactory>>;
}): ProviderResolver {
  const cache = new Map<string, { ciphertext: string; provider: CalendarProvider }>();
  return {
    async forConnection(connectionId) {
      if (connectionId === 'native') return deps.native;
      const connection = await deps.registry.requireConnection(connectionId);
      const cached = cache.get(connectionId);
      if (cached && cached.ciphertext === connection.secret_ciphertext) return cached.provider;
      const factory = deps.factories[connection.provider];
      if (!factory) {
        const settings =
          connection.provider === 'outlook'
            ? 'set MERIDIAN_OUTLOOK_CLIENT_ID to the Microsoft app registration (on AWS: cdk deploy -c outlookClientId=…).'
            : 'set MERIDIAN_GOOGLE_CLIENT_ID and MERIDIAN_GOOGLE_CLIENT_SECRET (on AWS: cdk deploy -c googleClientId=… -c googleClientSecret=…).';
        throw new DomainError(
          'PROVIDER_ERROR',
          `This deployment has no ${connection.provider} client configured: ${settings}`,
          { connection_id: connectionId },
        );
      }
      const plaintext = await deps.encryption.decrypt(
        Buffer.from(connection.secret_ciphertext, 'base64'),
        secretContext(connection),
      );
      let provider: CalendarProvider | undefined;
      const saveSecret = async (secret: string) => {
        // Only over the secret this adapter was built from: a reconnect or a removal meanwhile wins.
        const current = await deps.registry.requireConnection(connectionId);
        if (
          current.secret_ciphertext !== (cache.get(connectionId)?.ciphertext ?? connection.secret_ciphertext)
        )
          return;
        const ciphertext = Buffer.from(
          await deps.encryption.encrypt(Buffer.from(secret, 'utf8'), secretContext(connection)),
        ).toString('base64');
        await deps.registry.putConnection({ ...current, secret_ciphertext: ciphertext });
        if (provider) cache.set(connectionId, { ciphertext, provider });
      };
      provider = await factory(connection, Buffer.from(plaintext).toString('utf8'), saveSecret);
      cache.set(connectionId, { ciphertext: connection.secret_ciphertext, provider });
      return provider;
    },
  };
}
