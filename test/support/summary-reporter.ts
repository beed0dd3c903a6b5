import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, "tests: N passed, N failed, N skipped", that CI tooling reads
 * whatever the test runner; vitest's own summary is formatted for people.
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
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
