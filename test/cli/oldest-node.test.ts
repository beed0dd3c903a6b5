/**
 * bin/meridian.mjs on a Node older than the oldest supported (22, package.json `engines`): one
 * line that says what to do and a non-zero exit, not a stack trace from deep inside a dependency.
 * The older Node is this one with `process.versions.node` rewritten before the bin runs.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function meridianOn(nodeVersion: string) {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${nodeVersion}"})`;
  return spawnSync(process.execPath, ['--import', pretend, 'bin/meridian.mjs', 'keys', '--help'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('meridian on an older Node', () => {
  it('refuses Node 20 in one line that names the version needed, and exits 1', () => {
    const run = meridianOn('20.11.0');

    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'meridian needs Node 22 or newer, but this is Node 20.11.0: install a current Node (https://nodejs.org) and run it again.\n',
    );
  });

  it('runs on Node 22.0.0, the oldest supported', () => {
    const run = meridianOn('22.0.0');

    expect(run.stderr).not.toContain('needs Node');
    expect(run.status, run.stderr).toBe(0);
  });
});
