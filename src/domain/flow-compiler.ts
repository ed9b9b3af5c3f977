import type { CompileResult, FlowLoadOptions, ValidateResult } from '../flow';

/** The flow language as handlers see it (src/flow behind an interface, so tests can fake it). */
export interface FlowCompiler {
  validate(path: string, options: FlowLoadOptions): ValidateResult;
  compile(path: string, options: FlowLoadOptions): CompileResult;
}
