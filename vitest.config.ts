import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['libs/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'tests/**/*.test.ts', 'launcher/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
