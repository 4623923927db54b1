// The data folder's engine run by another process (the app, `asset-studio engine`): is its owner stopped? A
// process stopped by a signal (SIGSTOP, Ctrl-Z, a debugger) keeps its listening socket, whose connections the
// kernel still accepts, but it never answers: a command using its engine would wait for its whole time limit,
// and again on each retry. So before a command uses another process's engine, an owner that is stopped (as the
// system says: main/durable/process-alive.ts) is asked once, with a bounded wait for any answer: none within
// OWNER_ANSWER_MS and the engine is started here instead, taking the folder for this command and handing it back
// when it ends (main/engine/lock.ts). An owner that runs is used as it is, however busy (CPU load): it is never
// asked nor replaced, whatever it takes to answer.
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'undici';
import { isProcessAlive, isProcessStopped } from '../durable/process-alive.ts';
import { writeFileDurableSync } from '../durable/write-file.ts';

/** How long a stopped owner has to answer before its folder is taken for this command. */
const OWNER_ANSWER_MS = 5_000;

/** True when the engine at `url` answers (any HTTP status) within `waitMs`, from connecting to its first byte. */
async function engineAnswers(url: string, waitMs: number = OWNER_ANSWER_MS): Promise<boolean> {
  const agent = new Agent({ connectTimeout: waitMs, headersTimeout: waitMs, bodyTimeout: waitMs });
  try {
    const answer = await request(new URL('/', url), {
      method: 'GET',
      dispatcher: agent,
      signal: AbortSignal.timeout(waitMs),
    });
    await answer.body.dump();
    return true;
  } catch {
    return false;
  } finally {
    await agent.destroy();
  }
}

/** The owner of the engine at `url` (process `pid`) is stopped and did not answer: its folder may be taken for now. */
export async function ownerStopped(url: string, pid: number, waitMs: number = OWNER_ANSWER_MS): Promise<boolean> {
  return isProcessStopped(pid) && !(await engineAnswers(url, waitMs));
}

/**
 * What an engine started here leaves of the folder's address file (`address`) when it ends: removed, or, for a
 * folder borrowed from a stopped owner (`borrowed`), that owner's address put back while its process lives, so
 * that it finds the folder as it left it when it goes on. Read now, before this engine's address replaces it.
 */
export function addressOnClose(address: string, borrowed: boolean): () => void {
  let owner: { text: string; pid: number } | undefined;
  if (borrowed) {
    try {
      const text = readFileSync(address, 'utf8');
      owner = { text, pid: Number((JSON.parse(text) as { pid?: unknown }).pid) };
    } catch {
      owner = undefined; // no address to put back
    }
  }
  return () => {
    if (owner && Number.isInteger(owner.pid) && owner.pid > 0 && isProcessAlive(owner.pid))
      writeFileDurableSync(address, owner.text);
    else rmSync(address, { force: true });
  };
}
