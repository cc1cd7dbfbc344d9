// Test configuration: unit tests beside the code, cross-process tests in tests/. Sources are
// resolved through the "@hermes/source" export condition, so tests run against src/ without a build.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@hermes/source'] },
  ssr: { resolve: { conditions: ['@hermes/source'] } },
  test: {
    include: [
      'core/src/**/*.test.ts',
      'client/src/**/*.test.ts',
      'tui-gateway/src/**/*.test.ts',
      'ui-tui/src/**/*.test.{ts,tsx}',
      'bin/src/**/*.test.ts',
      'plugins/*/*/src/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
