/**
 * A suite that needs a program npm does not install, run as `npm test` runs it (vitest with the
 * summary reporter) on a PATH without that program: skipped with one line naming the install
 * command, or — with CI=true — failed with that same line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LINE = 'radicale is not on PATH: install it with `sudo apt-get install -y radicale`';

describe('a suite whose system part is missing', { timeout: 120_000 }, () => {
  let onlyNode: string;

  beforeAll(async () => {
    // A PATH holding node and nothing else: no radicale, whatever this machine has.
    onlyNode = await mkdtemp(join(tmpdir(), 'meridian-only-node-'));
    await symlink(process.execPath, join(onlyNode, 'node'));
  });

  afterAll(async () => {
    await rm(onlyNode, { recursive: true, force: true });
  });

  function runFixture(ci: boolean) {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: onlyNode };
    delete env.CI;
    if (ci) env.CI = 'true';
    const run = spawnSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/system-parts/vitest.config.ts'],
      { env, encoding: 'utf8', timeout: 110_000 },
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest colours its output
    return { status: run.status, output: `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '') };
  }

  it('is skipped, and the run ends with one line naming what is missing and its install command', () => {
    const { status, output } = runFixture(false);

    expect(status, output).toBe(0);
    expect(output).toContain(
      `skipped 1 file(s), ${LINE} — test/fixtures/system-parts/needs-radicale.check.ts\n`,
    );
    expect(output).toContain('tests: 1 passed, 0 failed, 1 skipped');
  });

  it('fails with that same line under CI=true', () => {
    const { status, output } = runFixture(true);

    expect(status, output).toBe(1);
    expect(output).toContain(`Error: ${LINE} (CI=true: required, never skipped)`);
    expect(output).not.toContain('skipped 1 file(s)');
  });
});
