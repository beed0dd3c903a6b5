import { defineConfig } from 'vitest/config';

/**
 * Tests that measure the server's latency under load (/health while ten worst-case calls run).
 * They assert the issue's 200 ms, so they run last and alone: beside other test files on a 2-core
 * machine they would measure the neighbours' CPU, not the server's.
 */
const LATENCY_TESTS = [
  'test/runtime/bounded-work-over-http.test.ts',
  'test/runtime/heavy-calls-over-http.test.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Freeze the host zone to something with DST so that code which silently
    // depends on the host TZ fails loudly; tests that vary TZ spawn processes.
    // The AWS SDK warns once per process that it will need Node 22 from 2027: true, known
    // (README), and noise repeated by every test worker.
    env: { TZ: 'America/Los_Angeles', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      {
        extends: true,
        test: {
          name: 'behaviour',
          include: ['test/**/*.test.ts'],
          exclude: LATENCY_TESTS,
          globalSetup: ['./test/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'latency',
          include: LATENCY_TESTS,
          fileParallelism: false,
          // A latency figure on a shared 2-core machine is measured twice before it is judged:
          // a second run starts a fresh server, and a server that is really slow fails both.
          retry: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
