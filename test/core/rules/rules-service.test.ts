import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { parseQuery } from '../../../lambdas/core/rules/parse-query.js';
import { printQuery } from '../../../lambdas/core/rules/print-query.js';
import { type RulesFixture, startRulesFixture, withGuests } from './rules-fixture.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('RulesService: rules (on dynalite)', () => {
  let fixture: RulesFixture;
  let projectId: string;

  beforeAll(async () => {
    fixture = await startRulesFixture();
    projectId = (await fixture.service.projects.create({ name: 'Acme' })).project_id;
    await fixture.addEvent('Acme sync', '2026-11-16T10:00:00', 30, {
      attendees: withGuests(['bob@acme.com']),
    });
    await fixture.addEvent('Acme sync', '2026-11-17T10:00:00', 30, {
      attendees: withGuests(['bob@acme.com']),
    });
  });
  afterAll(async () => {
    await fixture.close();
  });

  describe('createRule', () => {
    it('stores the canonical text of the query, with weight 1 by default', async () => {
      const rule = await fixture.service.createRule(LOCAL_OWNER, {
        query: 'Domain:ACME.com   AND -(Title:canceled)',
        project_id: projectId,
        description: 'Acme work',
      });

      expect(rule).toMatchObject({ query: 'domain:acme.com -title:canceled', weight: 1, version: 1 });
      expect((await fixture.service.rules.require(rule.rule_id)).description).toBe('Acme work');
    });

    it('refuses an unknown property with INVALID_PROPERTY and the property meant', async () => {
      const error = await failure(
        fixture.service.createRule(LOCAL_OWNER, { query: 'subject:standup', project_id: projectId }),
      );

      expect(isDomainError(error, 'INVALID_PROPERTY')).toBe(true);
      expect((error as Error).message).toMatch(/Did you mean 'title'/);
    });

    it('refuses a syntax error with INVALID_QUERY and its position', async () => {
      const error = await failure(
        fixture.service.createRule(LOCAL_OWNER, { query: 'title:a OR', project_id: projectId }),
      );

      expect(isDomainError(error, 'INVALID_QUERY')).toBe(true);
      expect((error as { details: { position: number } }).details.position).toBe(8);
    });

    it('refuses an unknown or archived project', async () => {
      const archived = await fixture.service.projects.create({ name: 'Gone' });
      await fixture.service.projects.update(archived.project_id, { archived: true });

      const unknown = await failure(
        fixture.service.createRule(LOCAL_OWNER, { query: 'title:x', project_id: 'prj_nope' }),
      );
      const onArchived = await failure(
        fixture.service.createRule(LOCAL_OWNER, { query: 'title:x', project_id: archived.project_id }),
      );

      expect(isDomainError(unknown, 'NOT_FOUND')).toBe(true);
      expect(isDomainError(onArchived, 'INVALID_INPUT')).toBe(true);
      expect((onArchived as Error).message).toMatch(/archived/);
    });
  });

  describe('createClassificationRule', () => {
    it('assembles a query that quotes and escapes values and parses back to itself', async () => {
      const rule = await fixture.service.createClassificationRule(LOCAL_OWNER, {
        conditions: [
          { property: 'domain', value: 'acme.com' },
          { property: 'title', value: 'team "sync" (weekly)', negated: true },
          { property: 'time-of-day', value: '>17:00' },
        ],
        logic: 'OR',
        project_id: projectId,
        weight: 3,
      });

      expect(rule.query).toBe('domain:acme.com OR -title:"team \\"sync\\" (weekly)" OR time-of-day:>17:00');
      expect(printQuery(parseQuery(rule.query))).toBe(rule.query);
      expect(rule.weight).toBe(3);
    });

    it('names the condition to fix when one value is not allowed', async () => {
      const error = await failure(
        fixture.service.createClassificationRule(LOCAL_OWNER, {
          conditions: [
            { property: 'domain', value: 'acme.com' },
            { property: 'response', value: 'sometimes' },
          ],
          project_id: projectId,
        }),
      );

      expect(isDomainError(error, 'INVALID_VALUE')).toBe(true);
      expect((error as { details: Record<string, unknown> }).details).toMatchObject({
        field: 'conditions[1]',
        allowed_values: expect.arrayContaining(['accepted', 'declined']),
      });
    });

    it('refuses an empty list of conditions with an example', async () => {
      const error = await failure(
        fixture.service.createClassificationRule(LOCAL_OWNER, { conditions: [], project_id: projectId }),
      );

      expect(isDomainError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toMatch(/"property":"domain"/);
    });
  });

  describe('updateRule and deleteRule', () => {
    it('re-canonicalises a changed query and bumps the version', async () => {
      const rule = await fixture.service.createRule(LOCAL_OWNER, { query: 'title:a', project_id: projectId });

      const updated = await fixture.service.updateRule(LOCAL_OWNER, rule.rule_id, {
        query: 'TITLE:b  OR title:c',
        weight: 2,
      });

      expect(updated).toMatchObject({ query: 'title:b OR title:c', weight: 2, version: 2 });
    });

    it('never loses an update when agents edit one rule at once, and refuses a stale version', async () => {
      const rule = await fixture.service.createRule(LOCAL_OWNER, { query: 'title:x', project_id: projectId });

      await Promise.all([
        fixture.service.updateRule(LOCAL_OWNER, rule.rule_id, { weight: 7 }),
        fixture.service.updateRule(LOCAL_OWNER, rule.rule_id, { description: 'both land' }),
        fixture.service.updateRule(LOCAL_OWNER, rule.rule_id, { query: 'title:y' }),
      ]);
      const stale = await failure(
        fixture.service.updateRule(LOCAL_OWNER, rule.rule_id, { weight: 1 }, rule.version),
      );
      const final = await fixture.service.rules.require(rule.rule_id);

      expect(final).toMatchObject({ weight: 7, description: 'both land', query: 'title:y', version: 4 });
      expect(isDomainError(stale, 'STALE_WRITE')).toBe(true);
    });

    it('deletes a rule, refusing a stale version first', async () => {
      const rule = await fixture.service.createRule(LOCAL_OWNER, { query: 'title:z', project_id: projectId });
      await fixture.service.updateRule(LOCAL_OWNER, rule.rule_id, { weight: 2 });

      const stale = await failure(fixture.service.deleteRule(LOCAL_OWNER, rule.rule_id, 1));
      await fixture.service.deleteRule(LOCAL_OWNER, rule.rule_id, 2);

      expect(isDomainError(stale, 'STALE_WRITE')).toBe(true);
      expect(isDomainError(await failure(fixture.service.rules.require(rule.rule_id)), 'NOT_FOUND')).toBe(
        true,
      );
    });
  });

  describe('listRules', () => {
    it('counts events matched in the last 30 days and warns of rules never matched or always outranked', async () => {
      const other = await fixture.service.projects.create({ name: 'Other' });
      // Weight 10 puts both above the rules the other tests saved; the narrow one has more conditions.
      const broad = await fixture.service.createRule(LOCAL_OWNER, {
        query: 'domain:acme.com',
        project_id: other.project_id,
        weight: 10,
      });
      const narrow = await fixture.service.createRule(LOCAL_OWNER, {
        query: 'domain:acme.com title:sync',
        project_id: other.project_id,
        weight: 10,
      });
      const unused = await fixture.service.createRule(LOCAL_OWNER, {
        query: 'domain:initech.com',
        project_id: other.project_id,
      });

      const { rules } = await fixture.service.listRules(LOCAL_OWNER);
      const byId = new Map(rules.map((r) => [r.rule_id, r]));

      expect(byId.get(narrow.rule_id)).toMatchObject({ events_matched: 2, events_won: 2, warnings: [] });
      expect(byId.get(broad.rule_id)).toMatchObject({ events_matched: 2, events_won: 0 });
      expect(byId.get(broad.rule_id)!.warnings).toEqual([
        expect.objectContaining({
          code: 'ALWAYS_OUTRANKED',
          message: expect.stringContaining(narrow.rule_id),
        }),
      ]);
      expect(byId.get(unused.rule_id)).toMatchObject({ events_matched: 0 });
      expect(byId.get(unused.rule_id)!.warnings.map((w) => w.code)).toEqual(['NEVER_MATCHED']);
    });
  });
});
