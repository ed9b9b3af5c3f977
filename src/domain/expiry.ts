import { usageError } from './errors';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2})$/;

function realDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * Parses `--expires-at`: `YYYY-MM-DD` covers that whole UTC day (the key stops working at the
 * next midnight UTC); `YYYY-MM-DDTHH:MM:SSZ` stops it at that instant. Offsets are refused.
 * Returns the first instant at which the key no longer works.
 */
export function parseExpiry(text: string, now: Date): Date {
  const hint = 'use YYYY-MM-DD (the whole day, UTC) or YYYY-MM-DDTHH:MM:SSZ';
  if (WITH_OFFSET.test(text)) {
    throw usageError(`--expires-at '${text}' has a timezone offset; only UTC is accepted`, 'write it in UTC with a trailing Z, e.g. 2027-01-31T08:00:00Z, or give a date YYYY-MM-DD');
  }
  let end: Date;
  const day = DATE_ONLY.exec(text);
  const instant = INSTANT.exec(text);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (!realDate(y, m, d)) throw usageError(`--expires-at '${text}' is not a calendar date`, hint);
    end = new Date(Date.UTC(y, m - 1, d + 1));
  } else if (instant) {
    const [y, m, d, hh, mm, ss] = instant.slice(1).map(Number) as [number, number, number, number, number, number];
    if (!realDate(y, m, d) || hh > 23 || mm > 59 || ss > 59) throw usageError(`--expires-at '${text}' is not a valid UTC instant`, hint);
    end = new Date(Date.UTC(y, m - 1, d, hh, mm, ss));
  } else {
    throw usageError(`--expires-at '${text}' is not a date`, hint);
  }
  if (end.getTime() <= now.getTime()) {
    throw usageError(`--expires-at '${text}' is already past`, 'give a date or instant in the future');
  }
  return end;
}
