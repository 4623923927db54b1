// What engine.db's file says before SQLite opens it, and the errors of the engine's records database
// (main/engine/state.ts): a zero-length engine.db where the engine kept records before (its -wal file, or the
// record of its last clean close, main/durable/clean-close.ts, is beside it) is no new database: its sessions and
// credits would be gone with no word. It is kept aside (main/durable/damaged-database.ts) and refused, naming the
// file; so is the absence of engine.db while such an emptied copy waits.
import { existsSync, statSync } from 'node:fs';
import { damagedCopies, keepAside } from '../durable/damaged-database.ts';

/** The engine's records database cannot be used as it is; the message names the file and what to do. */
export class EngineStateError extends Error {
  readonly path: string;

  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EngineStateError';
    this.path = path;
  }
}

/** engine.db is empty (0 bytes) where the engine kept records before: kept aside (`keptAs`) and refused. */
export class EngineStateEmptiedError extends EngineStateError {
  readonly keptAs: string;

  constructor(path: string, keptAs: string, earlier = false) {
    super(
      path,
      `The engine's records database ${path} ${earlier ? 'was found empty (0 bytes) earlier' : 'is empty (0 bytes)'}, ` +
        'though the engine kept its sessions, assets and credits there before. No new database was made in its ' +
        `place: that would lose them and reset the credits. The empty file is kept aside as ${keptAs}. Put back ` +
        `${path} from a backup if you have one; or, to start the engine afresh (its sessions gone, credits reset), ` +
        `move ${keptAs} out of the folder.`,
    );
    this.name = 'EngineStateEmptiedError';
    this.keptAs = keptAs;
  }
}

/** An emptied engine.db (see the top of this file), or its absence while an emptied copy waits, is refused. */
export function refuseEmptied(path: string): void {
  const size = sizeOf(path);
  const usedBefore = existsSync(`${path}-wal`) || existsSync(`${path}-closed`);
  if (size === 0 && usedBefore) throw new EngineStateEmptiedError(path, keepAside(path));
  if (size !== undefined) return;
  const earlier = damagedCopies(path).at(-1);
  if (earlier !== undefined && sizeOf(earlier) === 0) throw new EngineStateEmptiedError(path, earlier, true);
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
