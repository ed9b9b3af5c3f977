import { SvcError } from '../../domain/errors';

interface SqliteLike {
  code?: unknown;
  message?: unknown;
}

/** Turns a SQLite failure on `file` into one clear, user-facing SvcError. */
export function sqliteFailure(file: string, what: string, err: unknown): SvcError {
  if (err instanceof SvcError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as SqliteLike;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : String(err);
  if (code === 'SQLITE_NOTADB' || /file is not a database/i.test(message)) {
    return new SvcError('storage', `${what} ${file} is not a database file (or is corrupt)`, 'point --db at an svc database, or move the damaged file aside', { cause: err });
  }
  if (code === 'SQLITE_CORRUPT' || /malformed/i.test(message)) {
    return new SvcError('storage', `${what} ${file} is corrupt (${message})`, 'restore it from a backup', { cause: err });
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || /database is locked|busy/i.test(message)) {
    return new SvcError('storage', `${what} ${file} stayed locked by another process for too long`, 'retry; if it persists, look for a process holding a long write transaction', { cause: err });
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'EACCES' || /unable to open|readonly/i.test(message)) {
    return new SvcError('storage', `cannot open ${what} ${file}: ${message}`, 'check that the path exists and is writable', { cause: err });
  }
  if (code === 'SQLITE_FULL' || /disk is full/i.test(message)) {
    return new SvcError('storage', `${what} ${file}: the disk is full; nothing was written`, undefined, { cause: err });
  }
  if (code.startsWith('SQLITE_')) {
    return new SvcError('storage', `${what} ${file}: ${message}`, undefined, { cause: err });
  }
  return new SvcError('internal', `${what} ${file}: ${message}`, undefined, { cause: err });
}

export function isUniqueViolation(err: unknown): boolean {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SqliteLike;
  const text = `${String(e.code ?? '')} ${String(e.message ?? '')}`;
  return /UNIQUE constraint failed|SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)|UniqueConstraintViolation/.test(text) || (typeof err === 'object' && err !== null && err.constructor.name === 'UniqueConstraintViolationException');
}
