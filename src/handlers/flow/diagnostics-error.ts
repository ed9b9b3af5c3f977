import { SvcError } from '../../domain/errors';
import type { Diagnostic } from '../../flow';

export const renderDiagnostic = (d: Diagnostic): string => `${d.file}:${d.line}: ${d.message}`;

/** A flow file that does not compile, as one error carrying every diagnostic line. */
export function flowFileError(path: string, diagnostics: readonly Diagnostic[]): SvcError {
  const n = diagnostics.length;
  return new SvcError('invalid_input', `${path} has ${n} problem${n === 1 ? '' : 's'}; nothing was deployed`, `check it with: svc compile ${path}`, {
    details: diagnostics.map(renderDiagnostic),
  });
}
