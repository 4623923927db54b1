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
