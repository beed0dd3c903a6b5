import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { type RulesFixture, startRulesFixture } from './rules-fixture.js';

describe('ProjectStore (on dynalite)', () => {
  let fixture: RulesFixture;

  beforeAll(async () => {
    fixture = await startRulesFixture();
  });
  afterAll(async () => {
    await fixture.close();
  });

  describe('create and list', () => {
    it('stores a project with its billing fields at version 1 and lists it by name', async () => {
      const projects = fixture.service.projects;

      const zulu = await projects.create({
        name: 'Zulu',
        billable: true,
        rounding: { minutes: 15, mode: 'up' },
      });
      const alpha = await projects.create({ name: 'Alpha', client: 'Acme', color: '#ff8800' });
      const listed = await projects.list();

      expect(zulu).toMatchObject({ name: 'Zulu', billable: true, archived: false, version: 1 });
      expect(zulu.created_at).toBe('2026-11-23T12:00:00.000Z');
      expect(alpha).toMatchObject({ client: 'Acme', color: '#ff8800', billable: false });
      expect(listed.map((p) => p.name).filter((n) => n === 'Alpha' || n === 'Zulu')).toEqual([
        'Alpha',
        'Zulu',
      ]);
    });

    it('hides archived projects unless asked', async () => {
      const projects = fixture.service.projects;
      const old = await projects.create({ name: 'Old work' });

      await projects.update(old.project_id, { archived: true });

      expect((await projects.list()).some((p) => p.project_id === old.project_id)).toBe(false);
      expect(
        (await projects.list({ includeArchived: true })).some((p) => p.project_id === old.project_id),
      ).toBe(true);
    });

    it('refuses a malformed color with the expected shape', async () => {
      await expect(fixture.service.projects.create({ name: 'Bad', color: 'orange' })).rejects.toThrow(
        /#rrggbb/,
      );
    });
  });

  describe('update', () => {
    it('renames, clears an optional field with null, and bumps the version', async () => {
      const projects = fixture.service.projects;
      const project = await projects.create({ name: 'Draft', client: 'Acme' });

      const updated = await projects.update(project.project_id, { name: 'Final', client: null });

      expect(updated).toMatchObject({ name: 'Final', version: 2 });
      expect(updated.client).toBeUndefined();
      expect(await projects.require(project.project_id)).toEqual(updated);
    });

    it('loses no update when two writers change different fields at once', async () => {
      const projects = fixture.service.projects;
      const project = await projects.create({ name: 'Busy' });

      const writes = Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? projects.update(project.project_id, { client: `client-${i}` })
          : projects.update(project.project_id, { billable: true, color: `#00000${i}` }),
      );
      await Promise.all(writes);
      const final = await projects.require(project.project_id);

      expect(final.version).toBe(7);
      expect(final.billable).toBe(true);
      expect(final.client).toMatch(/^client-\d$/);
      expect(final.color).toMatch(/^#00000\d$/);
    });

    it('lets exactly one of two writers holding the same version win; the other gets STALE_WRITE', async () => {
      const projects = fixture.service.projects;
      const project = await projects.create({ name: 'Contested' });

      const results = await Promise.allSettled([
        projects.update(project.project_id, { name: 'First' }, project.version),
        projects.update(project.project_id, { name: 'Second' }, project.version),
      ]);

      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(isDomainError((lost[0] as PromiseRejectedResult).reason, 'STALE_WRITE')).toBe(true);
      expect((await projects.require(project.project_id)).version).toBe(2);
    });

    it('answers NOT_FOUND for an unknown project, saying where ids come from', async () => {
      const error = await fixture.service.projects
        .update('prj_missing', { name: 'x' })
        .catch((e: unknown) => e);

      expect(isDomainError(error, 'NOT_FOUND')).toBe(true);
      expect((error as Error).message).toMatch(/list_projects/);
    });
  });
});
