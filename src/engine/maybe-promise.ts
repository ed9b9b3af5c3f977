/** Values that are usually ready (fast-path expressions) and sometimes promised (jsonata, I/O). */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(v: MaybePromise<T>): v is Promise<T> {
  return v instanceof Promise;
}

/** Applies `fn` now when `v` is ready, after it settles otherwise. */
export function then<T, U>(v: MaybePromise<T>, fn: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(v) ? v.then(fn) : fn(v);
}
