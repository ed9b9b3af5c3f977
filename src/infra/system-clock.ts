import { injectable } from 'inversify';
import type { Clock } from '../domain/clock';

@injectable()
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
