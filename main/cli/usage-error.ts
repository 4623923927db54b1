// A mistake on the command line (a missing argument, a value out of range): exit code 2 and the usage.
import { AppError } from '../../shared/errors.ts';

export class UsageError extends AppError<'usage'> {
  constructor(message: string) {
    super('usage', message);
  }
}
