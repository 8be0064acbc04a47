import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'libs/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'tests/**/*.test.ts',
      'launcher/src/**/*.test.ts',
      'cli/src/**/*.test.ts',
      'console/{src,scripts}/**/*.test.ts',
    ],
    // The browser tests need the console admin-api serves (built only when its sources changed); the SDK edge's tests
    // run it built, as deployed.
    globalSetup: ['tests/browser/src/build-console.setup.ts', 'tests/stack/src/build-edge.setup.ts'],
    // Prototypes frozen in every worker, as the launcher freezes them in every Bunting process.
    setupFiles: ['tests/stack/src/harden.setup.ts'],
    // Two files at a time: most of a test's time is spent waiting on servers, so two on two cores take about 23
    // minutes where one took 31. A test's own time may then double, hence the bound of a minute.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
