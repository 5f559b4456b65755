/**
 * Vitest reporter that ends the run with one plain line, `tests: N passed, N failed, N skipped`,
 * which CI reads whatever the test runner. Before it, the tests that passed only on a retry
 * (vitest.config.ts `retry`), by name: a flake stays visible even when the run is green.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const flaky: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' && test.diagnostic()?.flaky) flaky.push(`${module.moduleId.replace(process.cwd(), '.')} > ${test.fullName}`);
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++;
    }
    for (const name of flaky) process.stdout.write(`\npassed on a retry: ${name}`);
    process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
