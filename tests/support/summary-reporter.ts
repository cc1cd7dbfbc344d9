// A vitest reporter that ends the run with the plain closing line `vitest: N passed, N failed,
// N skipped`, which CI reads to count the tests that ran. Above it, one line per skipped test
// (a test that needs a system program absent here names the program in its title), and an error
// vitest caught outside any test (an unhandled rejection) or a file that failed outside its tests
// (an import, a beforeAll hook) counts as a failure, as it fails the run. A test that passed only
// when retried is listed too.
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
    const suiteFailures: string[] = [];
    const retried: string[] = [];
    for (const mod of testModules) {
      const file = mod.moduleId.replace(`${process.cwd()}/`, '');
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        const retries = test.diagnostic()?.retryCount ?? 0;
        if (retries > 0) retried.push(`${file} > ${test.fullName} (${state} after ${retries} retries)`);
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped.push(`${file} > ${test.fullName}`);
      }
      failed += failedHere;
      // a file that failed outside its tests (an import, a beforeAll): its tests were skipped
      if (mod.state() === 'failed' && failedHere === 0) {
        failed++;
        suiteFailures.push(file);
      }
    }
    const lines = [
      ...suiteFailures.map((file) => `failed outside its tests: ${file}`),
      ...retried.map((name) => `retried: ${name}`),
      ...skipped.map((name) => `skipped: ${name}`),
    ];
    if (unhandledErrors.length > 0) lines.push(`unhandled errors outside tests: ${unhandledErrors.length}`);
    process.stdout.write(
      `\n${lines.map((l) => `${l}\n`).join('')}vitest: ${passed} passed, ${failed} failed, ${skipped.length} skipped\n`,
    );
  }
}
