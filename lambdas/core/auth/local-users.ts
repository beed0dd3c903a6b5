import * as z from 'zod';
import { grantFromItem, grantItemFields, grantSortKey } from '../access/grant-items.js';
import type { Grant, ResourceGrant, ResourceRef } from '../access/rights.js';
import { DomainError } from '../errors.js';
import { type Clock, ConditionFailedError, type DocumentStore } from '../ports/index.js';
import { GSI1PK, PK_PREFIX, SK } from '../storage/key-prefixes.js';
import { queryAll } from '../storage/query-all.js';
import { hashPassword, passwordMatches } from './password-hash.js';

const UserItem = z.object({
  user_name: z.string(),
  /** None for a person who signs in only at the organization's issuer (`users add --external`). */
  password_hash: z.string().optional(),
  created_at: z.string(),
});

export interface UserSummary {
  user_name: string;
  created_at: string;
  /** Signs in only at the organization's OpenID Connect issuer: has no password here. */
  external: boolean;
}

/**
 * Names people type at the sign-in page, or that the organization's issuer gives (an email, or
 * `<issuer host>:<sub>`, core/auth/upstream-person.ts): no spaces, no `#` (a key separator).
 */
const USER_NAME = /^[A-Za-z0-9._@+:-]{1,128}$/;

const userPk = (userName: string) => `${PK_PREFIX.user}${userName.toLowerCase()}`;

/**
 * What every refusal of a sign-in is compared against when the name is unknown, so that the
 * answer takes as long as for a known name with a wrong password: timing does not tell who exists.
 */
let decoyHash: Promise<string> | undefined;

/**
 * The people who sign in to the embedded authorization server (`meridian users …`), and their
 * rights: the same none/read/write grants on calendars and projects an API key has, in the same
 * item shape. A consent can hand an MCP client at most these.
 */
export class LocalUsers {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock }) {}

  /**
   * Adds a person; INVALID_INPUT for a bad name, CONFLICT when the name is taken. With no
   * password, the person signs in only at the organization's issuer (`users add --external`).
   */
  async add(userName: string, password: string | undefined): Promise<UserSummary> {
    if (!USER_NAME.test(userName)) {
      throw new DomainError(
        'INVALID_INPUT',
        `"${userName}" is not a user name: use 1–128 letters, digits or . _ @ + - : (e.g. "alice" or "alice@example.com").`,
        { field: 'user_name' },
      );
    }
    if (password !== undefined && password.length < 8) {
      throw new DomainError(
        'INVALID_INPUT',
        'The password is shorter than 8 characters: choose a longer one.',
        {
          field: 'password',
        },
      );
    }
    const item = {
      user_name: userName.toLowerCase(),
      ...(password === undefined ? {} : { password_hash: await hashPassword(password) }),
      created_at: this.deps.clock.now().toISOString(),
    };
    try {
      await this.deps.store.put(
        { pk: userPk(userName), sk: SK.user.record, ...item, gsi1pk: GSI1PK.users, gsi1sk: item.user_name },
        { condition: { op: 'not_exists' } },
      );
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      throw new DomainError(
        'CONFLICT',
        `A user named "${userName}" exists. Remove it first or choose another name.`,
        {
          user_name: userName,
        },
      );
    }
    return { user_name: item.user_name, created_at: item.created_at, external: password === undefined };
  }

  async list(): Promise<UserSummary[]> {
    const items = await queryAll(this.deps.store, { index: 'gsi1', partition: GSI1PK.users });
    return items.map((raw) => {
      const { user_name, created_at, password_hash } = UserItem.parse(raw);
      return { user_name, created_at, external: password_hash === undefined };
    });
  }

  /** True when the person exists (a sign-in session names them; they may have been removed since). */
  async exists(userName: string): Promise<boolean> {
    return (
      (await this.deps.store.get({ pk: userPk(userName), sk: SK.user.record }, { consistent: true })) !==
      undefined
    );
  }

  /** Removes a person and their rights; NOT_FOUND when there is none. Their consents are API keys: revoke those apart. */
  async remove(userName: string): Promise<void> {
    const items = await queryAll(this.deps.store, { partition: userPk(userName), consistent: true });
    if (!items.some((item) => item.sk === SK.user.record)) {
      throw new DomainError(
        'NOT_FOUND',
        `No user named "${userName}". List them with \`meridian users list\`.`,
        {
          user_name: userName,
        },
      );
    }
    await this.deps.store.batchDelete(items.map((item) => ({ pk: item.pk, sk: item.sk })));
  }

  /**
   * The person's name when the password is theirs, else undefined. Unknown names cost the same
   * scrypt as wrong passwords.
   */
  async verify(userName: string, password: string): Promise<string | undefined> {
    const raw = USER_NAME.test(userName)
      ? await this.deps.store.get({ pk: userPk(userName), sk: SK.user.record }, { consistent: true })
      : undefined;
    const item = raw ? UserItem.parse(raw) : undefined;
    // A person with no password here (they sign in at the issuer) is refused like an unknown name.
    if (item?.password_hash === undefined) {
      decoyHash ??= hashPassword('no user has this password');
      await passwordMatches(password, await decoyHash);
      return undefined;
    }
    return (await passwordMatches(password, item.password_hash)) ? item.user_name : undefined;
  }

  /** Sets the person's right on one resource; `none` removes it. NOT_FOUND for an unknown person. */
  async setGrant(userName: string, resource: ResourceRef, grant: Grant): Promise<void> {
    if (!(await this.exists(userName))) {
      throw new DomainError(
        'NOT_FOUND',
        `No user named "${userName}". Add one with \`meridian users add NAME\` (a password on stdin), or \`meridian users add NAME --external\` for someone who signs in at the organization's issuer.`,
        {
          user_name: userName,
        },
      );
    }
    const key = { pk: userPk(userName), sk: grantSortKey(resource) };
    if (grant === 'none') return this.deps.store.delete(key);
    await this.deps.store.put({
      ...key,
      ...grantItemFields(resource, grant, this.deps.clock.now().toISOString()),
    });
  }

  /** Every right the person has. */
  async grantsOf(userName: string): Promise<ResourceGrant[]> {
    const items = await queryAll(this.deps.store, {
      partition: userPk(userName),
      beginsWith: SK.user.grantPrefix,
      consistent: true,
    });
    return items.map(grantFromItem);
  }
}
