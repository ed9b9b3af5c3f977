import Mocha from 'mocha';
import { writeSync } from 'node:fs';

/**
 * mocha's spec reporter plus one plain closing line, `N passed, N failed, N skipped`, which CI
 * reads as the run's verdict.
 */
class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      // The spec reporter registered its epilogue on this event first, so this line comes last.
      // Written synchronously: with `exit: true` mocha ends the process right after this event.
      writeSync(1, `\n${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

export = SummaryReporter;
