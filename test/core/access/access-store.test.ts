import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessStore } from '../../../lambdas/core/access/access-store.js';
import { secretMatches } from '../../../lambdas/core/access/api-key-token.js';
import { calendarResource, LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';

describe('AccessStore', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });

  afterAll(async () => {
    await runtime.close();
  });

  describe('createKey', () => {
    it('returns a token once and stores only a hash of its secret', async () => {
      const key = await runtime.access.createKey('laptop');

      expect(key.token).toMatch(/^mrd_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
      const stored = await runtime.store.get({ pk: `KEY#${key.key_id}`, sk: 'KEY' });
      const secret = key.token.split('_').slice(2).join('_');
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(stored?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('setKeyToolsets', () => {
    it("gives the key's principal its default toolsets, and clears them with undefined", async () => {
      const key = await runtime.access.createKey('agent', { toolsets: ['time'] });
      const created = await runtime.access.authenticate(key.token);

      const changed = await runtime.access.setKeyToolsets(key.key_id, ['calendar', 'availability']);
      const afterChange = await runtime.access.authenticate(key.token);
      await runtime.access.setKeyToolsets(key.key_id, undefined);
      const cleared = await runtime.access.authenticate(key.token);

      expect(created).toMatchObject({ toolsets: ['time'] });
      expect(changed.toolsets).toEqual(['calendar', 'availability']);
      expect(afterChange).toMatchObject({ toolsets: ['calendar', 'availability'] });
      expect(cleared).toEqual({ kind: 'api-key', keyId: key.key_id, label: 'agent' });
    });

    it('keeps a revoked key revoked', async () => {
      const key = await runtime.access.createKey('gone');
      await runtime.access.revokeKey(key.key_id);

      await runtime.access.setKeyToolsets(key.key_id, ['time']);

      expect(await runtime.access.authenticate(key.token)).toBeUndefined();
    });
  });

  describe('authenticate', () => {
    it('accepts the token it issued and names the key', async () => {
      const key = await runtime.access.createKey('agent');

      expect(await runtime.access.authenticate(key.token)).toEqual({
        kind: 'api-key',
        keyId: key.key_id,
        label: 'agent',
      });
    });

    it('refuses a token whose secret was altered', async () => {
      const key = await runtime.access.createKey('agent');
      const last = key.token.at(-1) === 'A' ? 'B' : 'A';

      expect(await runtime.access.authenticate(`${key.token.slice(0, -1)}${last}`)).toBeUndefined();
    });

    it('refuses malformed and unknown tokens', async () => {
      expect(await runtime.access.authenticate('Bearer nonsense')).toBeUndefined();
      expect(await runtime.access.authenticate(`mrd_${'a'.repeat(12)}_${'A'.repeat(43)}`)).toBeUndefined();
    });

    it('runs the secret check once for every refusal of a well-formed token: unknown id, wrong secret, revoked key', async () => {
      // A refusal that skipped the check for unknown ids would tell them from known ones by its time.
      const checkedHashes: string[] = [];
      const access = new AccessStore({
        store: runtime.store,
        clock: runtime.clock,
        random: runtime.random,
        secretMatches: (secret, storedHash) => {
          checkedHashes.push(storedHash);
          return secretMatches(secret, storedHash);
        },
      });
      const known = await access.createKey('known');
      const revoked = await access.createKey('revoked');
      await access.revokeKey(revoked.key_id);
      const wrongSecret = `${known.token.slice(0, -43)}${'x'.repeat(43)}`;
      const unknownId = `mrd_${'0'.repeat(12)}_${'x'.repeat(43)}`;

      for (const token of [unknownId, wrongSecret, revoked.token]) {
        checkedHashes.length = 0;

        expect(await access.authenticate(token)).toBeUndefined();
        expect(checkedHashes).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
      }
    });

    it('refuses a revoked key', async () => {
      const key = await runtime.access.createKey('gone');

      await runtime.access.revokeKey(key.key_id);

      expect(await runtime.access.authenticate(key.token)).toBeUndefined();
      expect(
        (await runtime.access.listKeys()).find((k) => k.key_id === key.key_id)?.revoked_at,
      ).toBeDefined();
    });
  });

  describe('grants', () => {
    it('sets, lists, changes and removes a grant', async () => {
      const key = await runtime.access.createKey('grants');

      await runtime.access.setGrant(key.key_id, calendarResource('native/a'), 'read');
      await runtime.access.setGrant(key.key_id, calendarResource('native/b'), 'write');
      await runtime.access.setGrant(key.key_id, calendarResource('native/a'), 'write');
      await runtime.access.setGrant(key.key_id, calendarResource('native/b'), 'none');

      expect([...(await runtime.access.rightsOn(key.key_id, 'calendar'))]).toEqual([['native/a', 'write']]);
    });

    it('refuses a grant for a key that does not exist', async () => {
      await expect(
        runtime.access.setGrant('nosuchkey000', calendarResource('native/a'), 'read'),
      ).rejects.toSatisfy((error) => isDomainError(error, 'NOT_FOUND'));
    });

    it('names the calendar and the missing right when refusing', async () => {
      const key = await runtime.access.createKey('reader');
      await runtime.access.setGrant(key.key_id, calendarResource('native/r'), 'read');
      const principal = { kind: 'api-key' as const, keyId: key.key_id, label: 'reader' };

      await expect(
        runtime.access.requireRight(principal, calendarResource('native/r'), 'read'),
      ).resolves.toBeUndefined();
      const refusal = await runtime.access
        .requireRight(principal, calendarResource('native/r'), 'write')
        .catch((error) => error);
      expect(refusal.code).toBe('FORBIDDEN');
      expect(refusal.details).toMatchObject({ calendar_id: 'native/r', missing_right: 'write' });
      expect(refusal.details).toMatchObject({ resource_kind: 'calendar', resource_id: 'native/r' });
      expect(refusal.message).toContain('native/r');
    });

    it('keeps project grants apart from calendar grants, with the same rights', async () => {
      const key = await runtime.access.createKey('projects');
      const acme = { kind: 'project' as const, id: 'acme' };

      await runtime.access.setGrant(key.key_id, acme, 'read');
      await runtime.access.setGrant(key.key_id, calendarResource('native/acme'), 'write');
      const both = await runtime.access.grantsOf(key.key_id);
      const projects = await runtime.access.rightsOn(key.key_id, 'project');
      const calendars = await runtime.access.rightsOn(key.key_id, 'calendar');
      await runtime.access.setGrant(key.key_id, acme, 'none');

      expect(both).toHaveLength(2);
      expect([...projects]).toEqual([['acme', 'read']]);
      expect([...calendars]).toEqual([['native/acme', 'write']]);
      expect([...(await runtime.access.rightsOn(key.key_id, 'project'))]).toEqual([]);
    });

    it('refuses a project right the key lacks with FORBIDDEN naming the project', async () => {
      const key = await runtime.access.createKey('project reader');
      const principal = { kind: 'api-key' as const, keyId: key.key_id, label: 'project reader' };
      const acme = { kind: 'project' as const, id: 'acme' };
      await runtime.access.setGrant(key.key_id, acme, 'read');
      // A calendar whose id looks like the project's must not lend it a right.
      await runtime.access.setGrant(key.key_id, calendarResource('acme'), 'write');

      await expect(runtime.access.requireRight(principal, acme, 'read')).resolves.toBeUndefined();
      const refusal = await runtime.access.requireRight(principal, acme, 'write').catch((error) => error);
      const unknown = await runtime.access
        .requireRight(principal, { kind: 'project', id: 'other' }, 'read')
        .catch((error) => error);

      expect(refusal.code).toBe('FORBIDDEN');
      expect(refusal.details).toMatchObject({
        resource_kind: 'project',
        resource_id: 'acme',
        missing_right: 'write',
      });
      expect(refusal.details).not.toHaveProperty('calendar_id');
      expect(refusal.message).toContain(`grants set ${key.key_id} project/acme write`);
      expect(unknown.details).toMatchObject({ resource_id: 'other', missing_right: 'read' });
    });

    it('reads, changes and removes a calendar grant stored before grants named a kind', async () => {
      const key = await runtime.access.createKey('old grant');
      const principal = { kind: 'api-key' as const, keyId: key.key_id, label: 'old grant' };
      const itemKey = { pk: `KEY#${key.key_id}`, sk: 'GRANT#native/old' };
      await runtime.store.put({
        ...itemKey,
        calendar_id: 'native/old',
        right: 'read',
        granted_at: '2026-01-01T00:00:00.000Z',
      });

      const before = await runtime.access.grantsOf(key.key_id);
      await runtime.access.requireRight(principal, calendarResource('native/old'), 'read');
      await runtime.access.setGrant(key.key_id, calendarResource('native/old'), 'write');
      await runtime.access.requireRight(principal, calendarResource('native/old'), 'write');
      await runtime.access.setGrant(key.key_id, calendarResource('native/old'), 'none');

      expect(before).toEqual([{ resource: { kind: 'calendar', id: 'native/old' }, right: 'read' }]);
      expect(await runtime.store.get(itemKey)).toBeUndefined();
      expect(await runtime.access.grantsOf(key.key_id)).toEqual([]);
    });

    it('lets the local owner do everything', async () => {
      await expect(
        runtime.access.requireRight(LOCAL_OWNER, calendarResource('native/any'), 'write'),
      ).resolves.toBeUndefined();
    });
  });
});
