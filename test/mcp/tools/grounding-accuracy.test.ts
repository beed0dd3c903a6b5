import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import calibration from '../../fixtures/grounding/claims.json' with { type: 'json' };
import corpus from '../../fixtures/grounding/corpus.json' with { type: 'json' };
import heldOut from '../../fixtures/grounding/held-out-claims.json' with { type: 'json' };
import swapSet from '../../fixtures/grounding/swap-set.json' with { type: 'json' };
import swapSet2 from '../../fixtures/grounding/swap-set-2.json' with { type: 'json' };
import { okTool } from '../../support/mcp-client.js';
import { type ServedRuntime, serveRuntime } from '../../support/served-runtime.js';
import { startTestRuntime } from '../../support/test-runtime.js';

type Label = 'supported' | 'unsupported' | 'contradicted';
interface LabelledClaim {
  claim: string;
  label: string;
  kind?: string;
}
interface Report {
  status: string;
  evidence_items: { verdict: string }[];
  contradictions: { kind: string; claimed: string; found: string }[];
}

/**
 * Grounding accuracy on labelled claims, through verify_response over HTTP: the fixture corpus
 * goes in with initialize_context (files) and update_memory (entries), every claim is checked
 * alone. The calibration set is what the thresholds were tuned on; the held-out set was written
 * after tuning and never tuned on, so its figure is the honest one.
 */
describe('grounding accuracy (verify_response on labelled fixtures)', () => {
  let served: ServedRuntime;
  let client: Client;
  let projectId: string;
  /** The project of each swap set, by the set's name. */
  const swapProjects = new Map<string, string>();

  const verify = (text: string, project = projectId) =>
    okTool<Report>(client, 'verify_response', { project_id: project, response_text: text });

  /** The fixture's three labels: a contradiction, a supported verdict, or anything else. */
  const classify = (report: Report): Label =>
    report.contradictions.length > 0
      ? 'contradicted'
      : report.evidence_items[0]?.verdict === 'supported'
        ? 'supported'
        : 'unsupported';

  async function accuracy(claims: readonly LabelledClaim[]) {
    const confusion: Record<string, number> = {};
    let right = 0;
    for (const { claim, label } of claims) {
      const got = classify(await verify(claim));
      confusion[`${label}→${got}`] = (confusion[`${label}→${got}`] ?? 0) + 1;
      if (got === label) right += 1;
    }
    return {
      accuracy: Math.round((right / claims.length) * 1000) / 1000,
      right,
      total: claims.length,
      confusion,
    };
  }

  beforeAll(async () => {
    served = await serveRuntime(await startTestRuntime());
    client = (await served.connect('grounding')).client;
    const call = (name: string, args: Record<string, unknown>) =>
      okTool<Record<string, string>>(client, name, args);
    const files = corpus.filter((c) => c.kind === 'file').map((c) => ({ path: c.path!, content: c.text }));
    projectId = (await call('initialize_context', { project_path: '/srv/harbor', mode: 'none', files }))
      .project_id!;
    const branch = (await call('create_branch', { project_id: projectId, branch_topic: 'Harbor' })).branch_id;
    for (const entry of corpus.filter((c) => c.kind === 'entry')) {
      await call('update_memory', {
        project_id: projectId,
        branch_id: branch,
        content: entry.text,
        role: 'user',
      });
    }
    // Each swap set is its own project: their decisions must not answer each other's claims.
    for (const [name, set] of [
      ['swap set', swapSet],
      ['swap set 2', swapSet2],
    ] as const) {
      const project = (await call('initialize_context', { project_path: `/srv/${name}`, mode: 'none' }))
        .project_id!;
      const branch = (await call('create_branch', { project_id: project, branch_topic: 'Stack' })).branch_id;
      const entries = set.corpus.map((content) => ({ content, role: 'user' }));
      await call('update_memory', { project_id: project, branch_id: branch, entries });
      swapProjects.set(name, project);
    }
  }, 60_000);

  afterAll(() => served?.close());

  it('classifies the calibration set (143 claims the thresholds were tuned on)', async () => {
    const result = await accuracy(calibration);
    console.info('grounding calibration set', result);

    expect(calibration.length).toBeGreaterThanOrEqual(100);
    // Measured 142/143 (one supported claim read as unsupported).
    expect(result.accuracy).toBeGreaterThanOrEqual(0.99);
  }, 60_000);

  it('classifies the held-out set (30 claims never tuned on)', async () => {
    const result = await accuracy(heldOut);
    console.info('grounding held-out set', result);

    // Measured 26/30: a renamed kebab-case name, a negation in another clause and two word-overlap
    // false positives. The floor keeps it from getting worse.
    expect(result.accuracy).toBeGreaterThanOrEqual(0.86);
  }, 60_000);

  // A swap or negation is right when it is not ACCEPT (issue 22: it must not pass silently); a
  // true control is right when it is ACCEPT with no contradiction. Floors from measured runs keep
  // each from getting worse: swap set, its one clean run before the grounding was changed in
  // answer to it, 38/49 (swaps 8/16, negations 12/14, controls 18/19; 44/49 after, no longer a
  // held-out figure); swap set 2, its one run, 35/41 (swaps 10/14, negations 8/10, controls 17/17).
  it.each([
    ['swap set', swapSet, 0.77],
    ['swap set 2', swapSet2, 0.85],
  ] as const)(
    'tells swapped names and negations from true claims (%s, never tuned on)',
    async (name, set, floor) => {
      const tally: Record<string, { right: number; total: number; contradicted: number; misses: string[] }> =
        {};
      for (const { claim, label } of set.claims) {
        const report = await verify(claim, swapProjects.get(name));
        const accepted = report.status === 'ACCEPT' && report.contradictions.length === 0;
        const right = label === 'control' ? accepted : !accepted;
        tally[label] ??= { right: 0, total: 0, contradicted: 0, misses: [] };
        const row = tally[label];
        row.total += 1;
        if (right) row.right += 1;
        else row.misses.push(`${claim} (${report.status})`);
        if (report.contradictions.length > 0) row.contradicted += 1;
      }
      console.info(`grounding ${name}`, JSON.stringify(tally, null, 1));

      const right = Object.values(tally).reduce((sum, row) => sum + row.right, 0);
      expect(set.claims.length).toBeGreaterThanOrEqual(40);
      expect(right / set.claims.length).toBeGreaterThanOrEqual(floor);
    },
    60_000,
  );

  it.each([
    ['number', 20],
    ['path', 5],
  ])(
    'names the changed %s of every such contradiction in the fixtures',
    async (kind, atLeast) => {
      const claims = calibration.filter((c) => c.kind === kind);
      for (const { claim } of claims) {
        const [contradiction] = (await verify(claim)).contradictions;
        // A changed number may read as a version ("v2.5.0"): both are the number kinds.
        expect(contradiction?.kind, claim).toMatch(kind === 'number' ? /^(number|version)$/ : /^path$/);
        expect(claim.toLowerCase()).toContain(contradiction!.claimed);
      }
      expect(claims.length).toBeGreaterThanOrEqual(atLeast);
    },
    60_000,
  );
});
