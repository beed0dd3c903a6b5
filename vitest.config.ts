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
    env: { TZ: 'America/Los_Angeles' },
  },
});
