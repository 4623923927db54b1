// How the local web host ends on SIGINT (Ctrl-C) and SIGTERM: it closes (the link file removed, sockets ended,
// the services closed: a request in flight gets a moment, main/api/transport.ts), says it stopped and exits 0. A
// close that has not ended STOP_GRACE_MS later (something in flight that never ends) is cut short: it says so and
// exits 1; a second signal exits at once (130). Whatever is in flight, the host ends within seconds.

/** How long the host's close may take after the signal. */
export const STOP_GRACE_MS = 5_000;

export interface ShutdownOptions {
  close(): Promise<void>;
  log(line: string): void;
  exit(code: number): void;
  graceMs?: number;
}

/** Ends the host on SIGINT and SIGTERM as said above; returns the handler (for tests), already listening. */
export function closeOnSignals(options: ShutdownOptions): (signal: NodeJS.Signals) => void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return options.exit(130);
    stopping = true;
    options.log(`Stopping the web host (${signal})…`);
    const cut = setTimeout(() => {
      options.log(
        `Asset Studio (web host) stopped by ${signal}: closing took more than ${(options.graceMs ?? STOP_GRACE_MS) / 1000} s, so what was in flight was cut short.`,
      );
      options.exit(1);
    }, options.graceMs ?? STOP_GRACE_MS);
    void options
      .close()
      .catch((error: unknown) =>
        options.log(`Closing failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        clearTimeout(cut);
        options.log(`Asset Studio (web host) stopped by ${signal}.`);
        options.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return stop;
}
