/**
 * Small io-ts building blocks that give type-checker-quality messages: every codec's name
 * reads as the expected thing ("a positive integer"), maps are closed (unknown keys are
 * errors with a did-you-mean), and `report` turns io-ts errors into diagnostics that name
 * the key path and point at its line.
 */
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either';
import { closest, isPlainObject, setProp, show } from '../diagnostics';
import type { Path, PathSegment } from '../yaml-located';

export type Codec<A> = t.Type<A, A, unknown>;

/** A codec from a type guard; `name` is the phrase used in messages. */
export function refined<A>(name: string, guard: (u: unknown) => u is A, hint?: (u: unknown) => string | undefined): Codec<A> {
  return new t.Type<A, A, unknown>(
    name,
    guard,
    (u, c) => (guard(u) ? t.success(u) : t.failure(u, c, hint?.(u))),
    t.identity,
  );
}

export const Str = refined('a string', (u): u is string => typeof u === 'string');
export const NonEmptyStr = refined('a non-empty string', (u): u is string => typeof u === 'string' && u.trim() !== '');
export const Bool = refined('true or false', (u): u is boolean => typeof u === 'boolean');
export const PositiveInt = refined('a positive integer', (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u > 0);
export const NonNegInt = refined('an integer >= 0', (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0);
export const PositiveNumber = refined('a positive number', (u): u is number => typeof u === 'number' && Number.isFinite(u) && u > 0);
export const AnyValue = refined('any value', (u): u is unknown => u !== undefined);
export const MapValue = refined('a map', (u): u is Record<string, unknown> => isPlainObject(u));

export function pattern(name: string, re: RegExp, suggest?: (s: string) => string | undefined): Codec<string> {
  return refined(name, (u): u is string => typeof u === 'string' && re.test(u), (u) => {
    if (typeof u !== 'string' || suggest === undefined) return undefined;
    const s = suggest(u);
    return s !== undefined && s !== u && re.test(s) ? `for example '${s}'` : undefined;
  });
}

export function oneOf<V extends string>(values: readonly V[]): Codec<V> {
  const set = new Set<string>(values);
  return refined(
    `one of ${values.map((v) => `'${v}'`).join(', ')}`,
    (u): u is V => typeof u === 'string' && set.has(u),
    (u) => {
      if (typeof u !== 'string') return undefined;
      const c = closest(u, values);
      return c === undefined ? undefined : `did you mean '${c}'?`;
    },
  );
}

/** Tries the first branch whose `when` accepts the value; otherwise fails with `name`. */
export function alt<A>(name: string, branches: ReadonlyArray<{ when: (u: unknown) => boolean; codec: t.Decoder<unknown, A> }>): Codec<A> {
  return new t.Type<A, A, unknown>(
    name,
    (u): u is A => branches.some((b) => b.when(u) && !isLeft(b.codec.decode(u))),
    (u, c) => {
      for (const b of branches) if (b.when(u)) return b.codec.validate(u, c);
      return t.failure(u, c);
    },
    t.identity,
  );
}

export function listOf<A>(name: string, item: Codec<A>, opts: { nonEmpty?: boolean } = {}): Codec<A[]> {
  return new t.Type<A[], A[], unknown>(
    name,
    (u): u is A[] => Array.isArray(u) && u.every((x) => item.is(x)),
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c);
      if (opts.nonEmpty === true && u.length === 0) return t.failure(u, c, 'the list is empty');
      const errors: t.ValidationError[] = [];
      const out: A[] = [];
      u.forEach((x, i) => {
        const r = item.validate(x, t.appendContext(c, String(i), item, x));
        if (isLeft(r)) errors.push(...r.left);
        else out.push(r.right);
      });
      return errors.length > 0 ? t.failures(errors) : t.success(out);
    },
    t.identity,
  );
}

/** Marker type for an unknown key of a closed map. */
export const UnknownKey = refined('no such field', (u): u is never => u === undefined && u !== undefined);

type Props = Record<string, t.Mixed>;
export type StructOf<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & { [K in keyof O]?: t.TypeOf<O[K]> };

/** What a closed map decodes to when its fields are taken one by one: the good ones, and the errors. */
export interface FieldsResult<A> {
  /** Every known key whose value passed its codec (keys that failed or are missing are absent). */
  value: Partial<A>;
  /** The errors of every key (unknown, missing or failing its codec); empty when the whole map is valid. */
  errors: t.ValidationError[];
  /** The decoded map, when no key failed. */
  whole?: A;
}

/**
 * A closed map: `required` keys must be present, `optional` keys may be, any other key is an
 * error naming it (with a suggestion). The result keeps only known keys. Besides the usual
 * all-or-nothing decode, `decodeFields` decodes each key by its own codec and keeps the keys
 * that decoded, so one bad key does not hide the checks that depend on the others.
 */
export class StructType<R extends Props, O extends Props> extends t.Type<StructOf<R, O>, StructOf<R, O>, unknown> {
  private readonly validateFields: (u: Record<string, unknown>, c: t.Context) => FieldsResult<StructOf<R, O>>;

  constructor(name: string, required: R, optional: O, unknownHint?: (key: string) => string | undefined) {
    const known = [...Object.keys(required), ...Object.keys(optional)];
    const knownSet = new Set(known);
    const validateFields = (u: Record<string, unknown>, c: t.Context): FieldsResult<StructOf<R, O>> => {
      const errors: t.ValidationError[] = [];
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(u)) {
        if (knownSet.has(k)) continue;
        const hint = unknownHint?.(k) ?? suggestKey(k, known);
        errors.push({ value: u[k], context: [...c, { key: k, type: UnknownKey, actual: u[k] }], message: hint });
      }
      const check = (k: string, codec: t.Mixed, isRequired: boolean): void => {
        if (!Object.prototype.hasOwnProperty.call(u, k)) {
          if (isRequired) errors.push({ value: undefined, context: [...c, { key: k, type: codec, actual: undefined }] });
          return;
        }
        const v = u[k];
        const r = codec.validate(v, t.appendContext(c, k, codec, v));
        if (isLeft(r)) errors.push(...r.left);
        else setProp(out, k, r.right);
      };
      for (const [k, codec] of Object.entries(required)) check(k, codec, true);
      for (const [k, codec] of Object.entries(optional)) check(k, codec, false);
      // `out` holds exactly the known keys that passed their codecs; with no errors, all of them.
      const value = out as Partial<StructOf<R, O>>;
      return errors.length > 0 ? { value, errors } : { value, errors, whole: out as StructOf<R, O> };
    };
    super(
      name,
      (u): u is StructOf<R, O> => isPlainObject(u) && validateFields(u, [{ key: '', type: t.unknown, actual: u }]).errors.length === 0,
      (u, c) => {
        if (!isPlainObject(u)) return t.failure(u, c);
        const r = validateFields(u, c);
        return r.whole !== undefined ? t.success(r.whole) : t.failures(r.errors);
      },
      t.identity,
    );
    this.validateFields = validateFields;
  }

  /**
   * Decodes a map key by key. Error contexts are rooted at this codec, as with `decode`, so
   * `describeErrors` words and places them the same way.
   */
  decodeFields(u: unknown): FieldsResult<StructOf<R, O>> {
    const c: t.Context = [{ key: '', type: this, actual: u }];
    if (!isPlainObject(u)) return { value: {}, errors: [{ value: u, context: c }] };
    return this.validateFields(u, c);
  }
}

export function struct<R extends Props, O extends Props>(
  name: string,
  required: R,
  optional: O,
  unknownHint?: (key: string) => string | undefined,
): StructType<R, O> {
  return new StructType(name, required, optional, unknownHint);
}

function suggestKey(key: string, known: readonly string[]): string | undefined {
  const c = closest(key, known);
  return c === undefined ? undefined : `did you mean '${c}'?`;
}

/** Joins a key path the way a user writes it: `retry.max_attempts`, `events[0].type`. */
export function formatPath(path: Path): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number' || /^\d+$/.test(seg)) s += `[${seg}]`;
    else s += s === '' ? seg : `.${seg}`;
  }
  return s;
}

export interface ReportedError {
  path: PathSegment[];
  message: string;
}

/**
 * Converts io-ts errors into messages relative to the decoded root. One message per path.
 */
export function describeErrors(errors: t.Errors): ReportedError[] {
  const out: ReportedError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const entries = e.context.slice(1);
    const path = entries.map((x) => x.key);
    const last = e.context[e.context.length - 1];
    const where = formatPath(path);
    let message: string;
    if (last !== undefined && last.type === UnknownKey) {
      message = `unknown field '${where}'${e.message !== undefined ? ` (${e.message})` : ''}`;
    } else if (e.value === undefined && path.length > 0) {
      message = `missing required field '${where}' (${last?.type.name ?? 'a value'})`;
    } else {
      const expected = last?.type.name ?? 'valid';
      const subject = where === '' ? 'the value' : `'${where}'`;
      message = `${subject} must be ${expected}, got ${show(e.value)}${e.message !== undefined ? ` (${e.message})` : ''}`;
    }
    const key = `${where}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}
