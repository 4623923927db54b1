// Waiting for the output of the process to be written out. Writes to a pipe are asynchronous: what the
// pipe cannot take at once (64 KiB on Linux) is queued in the process, and process.exit() drops the queue.

/** Resolves once everything written to `stream` so far has been handed to the system (or the stream failed). */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Writes complete in order, so the callback of an empty write comes after every earlier one.
  return new Promise((resolve) => {
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });
}

/** Sets the exit code and exits once stdout and stderr are flushed. */
export async function exitWhenFlushed(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * A writer of `stream` that survives its reader going away: `asset-studio cache ls | head -1` closes the pipe
 * after one line, and the next write fails with EPIPE, emitted as an 'error' event that would end the process
 * with a stack trace. The command goes on and ends as it would (the engine keeps serving, a create is kept
 * track of), its later output dropped, since nobody reads it any more.
 */
export function writerOf(stream: NodeJS.WriteStream): (text: string) => void {
  let gone = false;
  stream.on('error', () => {
    gone = true; // EPIPE, or the stream failed otherwise: there is nowhere left to say so
  });
  return (text) => {
    if (!gone && !stream.destroyed) stream.write(text);
  };
}
