import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Freeze the host zone to something with DST so that code which silently
    // depends on the host TZ fails loudly; tests that vary TZ spawn processes.
    // The AWS SDK warns once per process that it will need Node 22 from 2027: true, known
    // (README), and noise repeated by every test worker.
    env: { TZ: 'America/Los_Angeles', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
