import type { CompileResult, ValidateResult } from '../flow';
import { Query, type MessageMeta } from '../domain/message';

/** Parse and resolve names of a `.flow.md` file. Touches no storage. */
export class ValidateFlowFile extends Query<ValidateResult> {
  constructor(readonly path: string, readonly libsDir: string | undefined, meta?: MessageMeta) {
    super(meta);
  }
}

/** Compile a `.flow.md` file to its IR. Touches no storage. */
export class CompileFlowFile extends Query<CompileResult> {
  constructor(readonly path: string, readonly libsDir: string | undefined, meta?: MessageMeta) {
    super(meta);
  }
}
