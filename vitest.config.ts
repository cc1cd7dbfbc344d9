// Test configuration, two projects: `unit` — the files beside the code, in process, fast
// (`npx vitest run --project unit`) — and `e2e` — tests/, which start daemons and TUIs as
// processes. `vitest run` runs both. Sources are resolved through the "@hermes/source" export
// condition, so tests run against src/ without a build.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@hermes/source'] },
  ssr: { resolve: { conditions: ['@hermes/source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'core/src/**/*.test.ts',
            'tui-gateway/src/**/*.test.ts',
            'ui-tui/src/**/*.test.{ts,tsx}',
            'bin/src/**/*.test.ts',
            'plugins/*/*/src/**/*.test.ts',
            'client/src/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['tests/**/*.test.ts'] },
      },
    ],
  },
});
