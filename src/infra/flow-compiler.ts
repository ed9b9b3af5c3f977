import { injectable } from 'inversify';
import type { FlowCompiler } from '../domain/flow-compiler';
import type { CompileResult, FlowLoadOptions, ValidateResult } from '../flow';

type FlowModule = typeof import('../flow');
let flowModule: FlowModule | undefined;

/** The flow language (markdown-it, yaml, jsonata, ajv) is loaded only by commands that read flow files. */
function flowLanguage(): FlowModule {
  flowModule ??= require('../flow') as FlowModule;
  return flowModule;
}

@injectable()
export class FlowLanguageCompiler implements FlowCompiler {
  validate(path: string, options: FlowLoadOptions): ValidateResult {
    return flowLanguage().validateFlowFile(path, options);
  }

  compile(path: string, options: FlowLoadOptions): CompileResult {
    return flowLanguage().compileFlowFile(path, options);
  }
}
