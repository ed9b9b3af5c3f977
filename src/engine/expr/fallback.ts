/**
 * The jsonata fallback: the same source evaluated by jsonata itself, with the
 * platform and custom functions registered. Errors are normalised to Errors
 * carrying jsonata's `code`.
 */
import jsonata from 'jsonata';
import { AstNode } from './ast';
import { toExprError } from './errors';
import { PLATFORM_FUNCTIONS } from './platform-functions';
import { ExprFunction } from './registry';

export class Fallback {
  private readonly expr: jsonata.Expression;

  constructor(source: string, functions: Readonly<Record<string, ExprFunction>> | undefined) {
    try {
      this.expr = jsonata(source);
    } catch (e) {
      throw toExprError(e);
    }
    for (const [name, pf] of Object.entries(PLATFORM_FUNCTIONS)) {
      this.expr.registerFunction(name, pf.implementation, pf.signature);
    }
    for (const [name, impl] of Object.entries(functions ?? {})) {
      this.expr.registerFunction(name, impl);
    }
  }

  ast(): AstNode {
    return this.expr.ast() as unknown as AstNode;
  }

  async evaluate(root: unknown, bindings: Record<string, unknown> | undefined): Promise<unknown> {
    try {
      return (await this.expr.evaluate(root, bindings)) as unknown;
    } catch (e) {
      throw toExprError(e);
    }
  }
}
