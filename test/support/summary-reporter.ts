import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import './system-parts.js';

/**
 * Prints one plain closing line, "tests: N passed, N failed, N skipped", that CI tooling reads
 * whatever the test runner; vitest's own summary is formatted for people. Before it, a line per
 * system part whose absence skipped suites (test/support/system-parts.ts): what is missing, how to
 * install it, and the files it skipped.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed to load, or whose beforeAll hook threw (its tests then show as skipped),
      // has no failed test but must still count as a failure.
      failed += module.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    process.stdout.write(skippedForMissingParts(testModules));
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

/** "skipped (...): LINE — files" per missing part, or '' when nothing was skipped for one. */
function skippedForMissingParts(testModules: ReadonlyArray<TestModule>): string {
  const filesByLine = new Map<string, Set<string>>();
  for (const module of testModules) {
    const tasks = [...module.children.allSuites(), ...module.children.allTests()];
    for (const task of tasks) {
      const line = task.meta().missingSystemPart;
      if (line === undefined) continue;
      const files = filesByLine.get(line) ?? new Set<string>();
      files.add(relative(process.cwd(), module.moduleId));
      filesByLine.set(line, files);
    }
  }
  if (filesByLine.size === 0) return '';
  const lines = [...filesByLine].map(
    ([line, files]) => `skipped ${files.size} file(s), ${line} — ${[...files].join(', ')}\n`,
  );
  return `\n${lines.join('')}(CI=true requires them: .ci/run installs them.)\n`;
}
