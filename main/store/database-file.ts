// Where the database of a data folder is: a module of its own, so code that needs only the name (the data
// folder's check, a command deciding whether to open it) does not load node:sqlite and the repositories.
import { join } from 'node:path';

export const DATABASE_FILE = 'asset-studio.db';

export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}
