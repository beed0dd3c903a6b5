import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROJECTS_PER_KEY, MAX_RULES_PER_KEY } from '../../../lambdas/core/rules/rules-service.js';
import { errorOf } from '../../support/mcp-client.js';
import { type RulesHttp, startRulesHttp } from './rules-http.js';

/**
 * Every rules call reads every rule and project, and any key may create projects and save rules
 * in them: one key keeps at most MAX_RULES_PER_KEY rules and creates projects only while it writes
 * fewer than MAX_PROJECTS_PER_KEY, so no key can make everyone's rules calls slower at will. The
 * refusal says what to do; the local owner is not bounded.
 */
describe('how much one key may save', () => {
  let http: RulesHttp;
  let bobProject: string;

  beforeAll(async () => {
    http = await startRulesHttp();
    bobProject = (
      await http.agents.bob.ok<{ project: { project_id: string } }>('create_project', { name: 'Bob' })
    ).project.project_id;
  });

  afterAll(async () => {
    await http?.close();
  });

  it('refuses a rule past the cap with QUOTA_EXCEEDED, and takes one again after a delete', async () => {
    const bob = http.agents.bob;
    // All but one saved as bob's create_rule calls would save them.
    const author = `key:${bob.keyId}`;
    for (let i = 1; i < MAX_RULES_PER_KEY; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, MAX_RULES_PER_KEY - i) }, (_, j) =>
          http.runtime.rules.rules.create(
            { project_id: bobProject, query: `title:"r${i + j}"`, weight: 1 },
            author,
          ),
        ),
      );

    const last = await bob.ok<{ rule: { rule_id: string } }>('create_rule', {
      project_id: bobProject,
      query: 'title:last',
    });
    const refused = errorOf(await bob.call('create_rule', { project_id: bobProject, query: 'title:over' }));
    await bob.ok('delete_rule', { rule_id: last.rule.rule_id });
    await bob.ok('create_rule', { project_id: bobProject, query: 'title:again' });

    expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: MAX_RULES_PER_KEY });
    expect(refused.message).toContain('delete rules it no longer needs');
  });

  it('refuses a project past the cap; the owner is not bounded', async () => {
    const bob = http.agents.bob;
    for (let i = 1; i < MAX_PROJECTS_PER_KEY - 1; i += 1)
      await http.runtime.access.setGrant(bob.keyId, { kind: 'project', id: `prj_held${i}` }, 'write');

    await bob.ok('create_project', { name: 'The last one' });
    const refused = errorOf(await bob.call('create_project', { name: 'One too many' }));

    expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: MAX_PROJECTS_PER_KEY });
    await expect(
      http.runtime.rules.createProject({ kind: 'local-owner' }, { name: 'Owner' }),
    ).resolves.toBeTruthy();
  });
});
