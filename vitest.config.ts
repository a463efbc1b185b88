import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // What a person sees in a browser test is waited for up to 15 s (expect.poll's default of 1 s failed once when
    // the CI machine ran two suites' browsers at once); only a failing wait lasts that long.
    expect: { poll: { timeout: 15_000 } },
    env: { TZ: 'UTC' },
  },
});
