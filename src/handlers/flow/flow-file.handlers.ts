import { inject, injectable } from 'inversify';
import type { FlowCompiler } from '../../domain/flow-compiler';
import type { QueryHandler } from '../../domain/message';
import type { CompileResult, ValidateResult } from '../../flow';
import { TOKENS } from '../../infra/tokens';
import type { CompileFlowFile, ValidateFlowFile } from '../../queries/flow-file-queries';

@injectable()
export class ValidateFlowFileHandler implements QueryHandler<ValidateFlowFile> {
  constructor(@inject(TOKENS.FlowCompiler) private readonly compiler: FlowCompiler) {}

  async execute(query: ValidateFlowFile): Promise<ValidateResult> {
    return this.compiler.validate(query.path, { libsDir: query.libsDir });
  }
}

@injectable()
export class CompileFlowFileHandler implements QueryHandler<CompileFlowFile> {
  constructor(@inject(TOKENS.FlowCompiler) private readonly compiler: FlowCompiler) {}

  async execute(query: CompileFlowFile): Promise<CompileResult> {
    return this.compiler.compile(query.path, { libsDir: query.libsDir });
  }
}
