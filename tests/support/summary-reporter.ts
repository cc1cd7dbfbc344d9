// A vitest reporter that ends the run with the plain closing line `vitest: N passed, N failed,
// N skipped`, which CI reads to count the tests that ran. Above it, one line per skipped test
// (a test that needs a system program absent here names the program in its title), and an error
// vitest caught outside any test (an unhandled rejection) counts as a failure, as it fails the run.
import type { SerializedError } from '@vitest/utils';
import type { Reporter, TestModule } from 'vitest/node';

/** Prints the skipped tests and one summary line after all test modules finish. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    const skipped: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped.push(`${mod.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}`);
      }
      if (mod.state() === 'failed' && mod.children.size === 0) failed++;
    }
    const lines = skipped.map((name) => `skipped: ${name}`);
    if (unhandledErrors.length > 0) lines.push(`unhandled errors outside tests: ${unhandledErrors.length}`);
    process.stdout.write(
      `\n${lines.map((l) => `${l}\n`).join('')}vitest: ${passed} passed, ${failed} failed, ${skipped.length} skipped\n`,
    );
  }
}
