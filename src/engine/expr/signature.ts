/**
 * Function signatures in jsonata's notation (e.g. `<s-nn?:s>`), validated the
 * way jsonata validates them: the argument types are spelled as a string of
 * type symbols and matched against a regular expression built from the
 * signature; `-` substitutes the context value for a missing argument, and
 * `a` wraps a single value into an array (checking `a<n>`-style item types).
 */
import { exprError } from './errors';
import { isFunctionValue } from './values';

interface Param {
  regex: string;
  type: string;
  subtype?: string;
  context?: RegExp;
}

const PLURALS: Readonly<Record<string, string>> = {
  a: 'arrays', b: 'booleans', f: 'functions', n: 'numbers', o: 'objects', s: 'strings',
};

export function typeSymbol(value: unknown): string {
  switch (typeof value) {
    case 'function': return 'f';
    case 'string': return 's';
    case 'number': return 'n';
    case 'boolean': return 'b';
    case 'object':
      if (value === null) return 'l';
      if (Array.isArray(value)) return 'a';
      return isFunctionValue(value) ? 'f' : 'o';
    default:
      return 'm'; // missing
  }
}

function closing(sig: string, start: number, open: string, close: string): number {
  let depth = 1;
  let pos = start;
  while (pos < sig.length) {
    pos++;
    const c = sig.charAt(pos);
    if (c === close) {
      depth--;
      if (depth === 0) break;
    } else if (c === open) {
      depth++;
    }
  }
  return pos;
}

function parseParams(definition: string): Param[] {
  const params: Param[] = [];
  let prev: Param | undefined;
  for (let pos = 1; pos < definition.length; pos++) {
    const symbol = definition.charAt(pos);
    if (symbol === ':') break; // the return type is not checked
    let param: Param | undefined;
    switch (symbol) {
      case 's': case 'n': case 'b': case 'l': case 'o':
        param = { regex: `[${symbol}m]`, type: symbol };
        break;
      case 'a':
        param = { regex: '[asnblfom]', type: 'a' };
        break;
      case 'f':
        param = { regex: 'f', type: 'f' };
        break;
      case 'j':
        param = { regex: '[asnblom]', type: 'j' };
        break;
      case 'x':
        param = { regex: '[asnblfom]', type: 'x' };
        break;
      case '-':
        if (prev) {
          prev.context = new RegExp(prev.regex);
          prev.regex += '?';
        }
        break;
      case '?':
      case '+':
        if (prev) prev.regex += symbol;
        break;
      case '(': {
        const end = closing(definition, pos, '(', ')');
        const choice = definition.substring(pos + 1, end);
        if (choice.includes('<')) throw new Error(`unsupported signature ${definition}`);
        param = { regex: `[${choice}m]`, type: `(${choice})` };
        pos = end;
        break;
      }
      case '<': {
        if (!prev || (prev.type !== 'a' && prev.type !== 'f')) throw new Error(`bad signature ${definition}`);
        const end = closing(definition, pos, '<', '>');
        prev.subtype = definition.substring(pos + 1, end);
        pos = end;
        break;
      }
      default:
        break;
    }
    if (param) {
      params.push(param);
      prev = param;
    }
  }
  return params;
}

export class Signature {
  private readonly params: Param[];
  private readonly regex: RegExp;
  /** Regex groups per spelled argument list, e.g. "sn" → ["s", "n", ""]. */
  private readonly plans = new Map<string, readonly string[] | null>();
  /** Spelled argument lists for which validation returns the arguments unchanged. */
  private readonly passThrough = new Set<string>();
  /**
   * Spelled argument lists whose arguments fill the leading parameters unchanged and leave the
   * rest out (none of them taken from the context): validation pads them with undefined.
   */
  private readonly padded = new Set<string>();

  constructor(readonly definition: string) {
    this.params = parseParams(definition);
    this.regex = new RegExp(`^${this.params.map((p) => `(${p.regex})`).join('')}$`);
  }

  private plan(spelled: string): readonly string[] | null {
    let plan = this.plans.get(spelled);
    if (plan === undefined) {
      const m = this.regex.exec(spelled);
      plan = m ? m.slice(1).map((g) => g ?? '') : null;
      if (this.plans.size < 512) {
        this.plans.set(spelled, plan);
        // nothing to substitute or wrap: every parameter matched exactly one supplied argument that
        // passes as it is (not array-typed, or an array for an `a` without item type)
        if (plan !== null) {
          const asIs = (g: string, i: number): boolean => g.length === 1 && (this.params[i].type !== 'a' || (g === 'a' && this.params[i].subtype === undefined));
          if (plan.every(asIs)) this.passThrough.add(spelled);
          else {
            const k = plan.indexOf('');
            if (k >= 0 && plan.every((g, i) => (i < k ? asIs(g, i) : g === '' && this.params[i].context === undefined))) this.padded.add(spelled);
          }
        }
      }
    }
    return plan;
  }

  private fail(args: readonly unknown[], spelled: string, token: string | undefined): never {
    let pattern = '^';
    let goodTo = 0;
    for (const p of this.params) {
      pattern += p.regex;
      const m = spelled.match(pattern);
      if (m === null) throw exprError('T0410', { value: args[goodTo], index: goodTo + 1, token });
      goodTo = m[0].length;
    }
    throw exprError('T0410', { value: args[goodTo], index: goodTo + 1, token });
  }

  /** Returns the validated argument list (context substituted, singletons wrapped) or throws T0410/T0411/T0412. */
  validate(args: readonly unknown[], context: unknown, token?: string): unknown[] {
    let spelled = '';
    for (let i = 0; i < args.length; i++) spelled += typeSymbol(args[i]);
    if (this.passThrough.has(spelled)) return args as unknown[];
    if (this.padded.has(spelled)) {
      const out = args.slice();
      while (out.length < this.params.length) out.push(undefined);
      return out;
    }
    const plan = this.plan(spelled);
    if (plan === null) this.fail(args, spelled, token);
    const out: unknown[] = [];
    let argIndex = 0;
    const params = this.params;
    for (let i = 0; i < params.length; i++) {
      const param = params[i];
      const match = plan[i];
      if (match === '') {
        if (param.context) {
          if (param.context.test(typeSymbol(context))) {
            out.push(context);
          } else {
            throw exprError('T0411', { value: context, index: argIndex + 1, token });
          }
        } else {
          out.push(args[argIndex]);
          argIndex++;
        }
        continue;
      }
      for (let k = 0; k < match.length; k++) {
        const single = match.charAt(k);
        let arg = args[argIndex];
        if (param.type === 'a') {
          if (single === 'm') {
            arg = undefined;
          } else {
            let ok = true;
            const sub = param.subtype;
            if (sub !== undefined) {
              if (single !== 'a' && match !== sub) {
                ok = false;
              } else if (single === 'a' && (arg as unknown[]).length > 0) {
                const items = arg as unknown[];
                const itemType = typeSymbol(items[0]);
                if (itemType !== sub.charAt(0)) {
                  ok = false;
                } else {
                  for (let j = 1; j < items.length; j++) {
                    if (typeSymbol(items[j]) !== itemType) {
                      ok = false;
                      break;
                    }
                  }
                }
              }
            }
            if (!ok) throw exprError('T0412', { value: arg, index: argIndex + 1, type: PLURALS[sub ?? ''], token });
            if (single !== 'a') arg = [arg];
          }
        }
        out.push(arg);
        argIndex++;
      }
    }
    return out;
  }
}

const cache = new Map<string, Signature>();

export function signature(definition: string): Signature {
  let s = cache.get(definition);
  if (!s) {
    s = new Signature(definition);
    cache.set(definition, s);
  }
  return s;
}
