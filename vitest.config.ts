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
          // one module graph per worker instead of one per file: the engine's area entry points are
          // loaded once, not re-evaluated for each of ~240 files (about 2 min → 1 min on 2 cores).
          // Unit tests keep no state outside their own temp folders and fakes; a run with files
          // shuffled (`--sequence.shuffle.files`) passes the same
          isolate: false,
          // modules loaded once per worker decide at import time what they decide from the
          // environment: Ink draws no live part when it believes it runs in CI, which the TUI
          // tests need it to (CI runs this suite with CI=true)
          env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
          // the unit project first, then e2e: the daemons and TUIs of e2e tests time real
          // waits, and on two cores they should not share the CPU with the unit suite
          sequence: { groupOrder: 0 },
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
        test: { name: 'e2e', include: ['tests/**/*.test.ts'], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
