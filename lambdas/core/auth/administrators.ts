import { DomainError } from '../errors.js';
import type { Clock, DocumentStore } from '../ports/index.js';
import { PK_PREFIX, SK } from '../storage/key-prefixes.js';

const accountPk = (accountId: string) => `${PK_PREFIX.user}${accountId.toLowerCase()}`;

/**
 * Who may use the authorization server's admin page (`/oauth/admin`): people marked with
 * `meridian users admin NAME on`. The mark is an item of its own in the person's partition, beside
 * (not inside) their password record: removing the person removes it, and an account that signs
 * in elsewhere (an upstream issuer) can carry it without a password.
 *
 * @example
 * await new Administrators({ store, clock }).set('alice', true);
 * await administrators.is('alice'); // true
 */
export class Administrators {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock }) {}

  async is(accountId: string): Promise<boolean> {
    const item = await this.deps.store.get(
      { pk: accountPk(accountId), sk: SK.user.administrator },
      { consistent: true },
    );
    return item !== undefined;
  }

  /** Marks or unmarks a person; NOT_FOUND unless `exists` says the person is there. */
  async set(accountId: string, on: boolean, exists: (accountId: string) => Promise<boolean>): Promise<void> {
    if (!(await exists(accountId)))
      throw new DomainError(
        'NOT_FOUND',
        `No user named "${accountId}". List them with \`meridian users list\`.`,
        { user_name: accountId },
      );
    const key = { pk: accountPk(accountId), sk: SK.user.administrator };
    if (!on) return this.deps.store.delete(key);
    await this.deps.store.put({ ...key, since: this.deps.clock.now().toISOString() });
  }
}
