import { ValidateFlowFile } from '../../queries/flow-file-queries';
import { renderDiagnostic } from '../../handlers/flow/diagnostics-error';
import { SvcCommand } from '../base-command';
import { flowPathArg, libsFlag } from '../flow-flags';

export default class Validate extends SvcCommand {
  static override summary = 'Parse a flow file and resolve its names (no storage is touched).';
  static override description =
    'Checks the front matter and every step block, step ids, references to earlier steps, declared config and secrets keys, and included libraries. Expressions are not lowered, so a file that validates can still fail to compile. Prints every problem as file:line: message and exits 1.';
  static override examples = ['<%= config.bin %> validate examples/order-intake.flow.md', '<%= config.bin %> validate flows/billing.flow.md --libs flows/libs'];
  static override args = { path: flowPathArg };
  static override flags = { libs: libsFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Validate);
    const app = this.openApp({});
    const result = await app.queries.execute(new ValidateFlowFile(args.path, flags.libs));
    if (result.ok) {
      this.out(`ok ${args.path} (flow ${result.name}, tenant ${result.tenant}, ${result.stepCount} step${result.stepCount === 1 ? '' : 's'})`);
      return;
    }
    for (const d of result.diagnostics) this.note(renderDiagnostic(d));
    const n = result.diagnostics.length;
    this.note(`error: ${args.path} has ${n} problem${n === 1 ? '' : 's'}`);
    this.fail(1);
  }
}
