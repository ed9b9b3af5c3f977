import { Flags } from '@oclif/core';
import { renameSync, writeFileSync } from 'node:fs';
import { SvcError } from '../../domain/errors';
import { renderDiagnostic } from '../../handlers/flow/diagnostics-error';
import { CompileFlowFile } from '../../queries/flow-file-queries';
import { SvcCommand } from '../base-command';
import { flowPathArg, libsFlag } from '../flow-flags';

export default class Compile extends SvcCommand {
  static override summary = 'Compile a flow file to its JSON IR (nothing is stored).';
  static override description = 'The same file and libraries always give byte-identical IR. With -o the IR goes to a file and only its 64-hex SHA-256 hash is printed.';
  static override examples = ['<%= config.bin %> compile examples/order-intake.flow.md -p', '<%= config.bin %> compile examples/order-intake.flow.md -o order-intake.ir.json'];
  static override args = { path: flowPathArg };
  static override flags = {
    output: Flags.string({ char: 'o', description: 'write the IR to this file and print its hash instead', helpValue: '<path>' }),
    pretty: Flags.boolean({ char: 'p', default: false, description: 'indent the JSON' }),
    libs: libsFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Compile);
    const app = this.openApp({});
    const result = await app.queries.execute(new CompileFlowFile(args.path, flags.libs));
    if (!result.ok) {
      for (const d of result.diagnostics) this.note(renderDiagnostic(d));
      const n = result.diagnostics.length;
      this.note(`error: ${args.path} has ${n} problem${n === 1 ? '' : 's'}`);
      this.fail(1);
      return;
    }
    const text = flags.pretty ? JSON.stringify(result.ir, null, 2) : result.json;
    if (flags.output === undefined) {
      this.out(text);
      return;
    }
    const tmp = `${flags.output}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, `${text}\n`);
      renameSync(tmp, flags.output);
    } catch (err) {
      throw new SvcError('storage', `cannot write ${flags.output}: ${(err as Error).message}`, undefined, { cause: err });
    }
    this.out(result.hash);
  }
}
