// A read of a job is claimed in the database, so two processes of one data folder never read the same due job
// twice; the claim is a lease. Its holder renews it while the read is under way (every third of the lease); a
// holder that dies (kill -9), is stopped (SIGSTOP, a suspended laptop) or hangs stops renewing, its lease
// runs out and the job is due again for any reader of the folder: no job stays unread for ever.
import type { Store } from '../store/database.ts';

/** How long a claim lasts unrenewed (default 30 s): `ASSET_STUDIO_CLAIM_LEASE_MS` sets it (tests use a short one). */
export const CLAIM_LEASE_ENV = 'ASSET_STUDIO_CLAIM_LEASE_MS';
export const DEFAULT_CLAIM_LEASE_MS = 30_000;

/** The lease of the environment (a whole number of ms, at least 100), or undefined when unset or not one. */
export function claimLeaseFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[CLAIM_LEASE_ENV]?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const ms = Number(text);
  return ms >= 100 ? ms : undefined;
}

export interface ReadClaim {
  /** Stops renewing (the read ended: its next time is set by `schedule`, which clears the claim). */
  release(): void;
}

/**
 * Claims the read of a due job for `leaseMs`, renewed every third of it until released; undefined when the
 * read is not due (another process took it, or it was planned later).
 */
export function claimRead(
  store: Store,
  id: string,
  options: { now: () => number; leaseMs: number },
): ReadClaim | undefined {
  const start = options.now();
  let held = start + options.leaseMs;
  if (!store.jobs.markPolling(id, start, held)) return undefined;
  const timer = setInterval(
    () => {
      const until = options.now() + options.leaseMs;
      let renewed = false;
      try {
        renewed = store.jobs.renewClaim(id, held, until);
      } catch {
        return; // the database busy: the next renewal tries again, well within the lease
      }
      if (renewed) held = until;
      else clearInterval(timer); // no longer ours: the read ended or another reader took it over
    },
    Math.max(10, Math.floor(options.leaseMs / 3)),
  );
  timer.unref();
  return { release: () => clearInterval(timer) };
}
