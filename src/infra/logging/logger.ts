import { createLogger, format, transports, type Logger as Winston } from 'winston';
import { LEVELS, levelFromRustLog, type Level } from './rust-log';

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Structured log: JSON lines on stderr. Every record of a request carries its correlation id. */
export interface Logger {
  log(level: Level, message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
  readonly level: Level;
}

class WinstonLogger implements Logger {
  constructor(private readonly winston: Winston, readonly level: Level) {}

  log(level: Level, message: string, fields?: LogFields): void {
    this.winston.log(level, message, fields ?? {});
  }

  child(fields: LogFields): Logger {
    return new WinstonLogger(this.winston.child(fields), this.level);
  }
}

export function createStderrLogger(rustLog = process.env.RUST_LOG): Logger {
  const level = levelFromRustLog(rustLog);
  const levels = Object.fromEntries(LEVELS.map((l, i) => [l, i]));
  const winston = createLogger({
    levels,
    level,
    format: format.combine(format.timestamp(), format.json()),
    transports: [new transports.Stream({ stream: process.stderr })],
  });
  return new WinstonLogger(winston, level);
}
