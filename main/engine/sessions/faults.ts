// Session faults: which session steps fail, or report a status no client knows, decided by the explicit
// session rules of the fault controls (kinds session-failure and session-status) and never by what a client
// sends: a prompt, URL or text that holds "fail" is processed like any other.
import type { EndpointId } from '../../../shared/contract/index.ts';
import type { EngineContext } from '../context.ts';

/** What a session rule decided for a step started by a request. */
export interface StepFault {
  fails: boolean;
  /** Reported while the step runs instead of its own running statuses. */
  running_status?: string;
}

/** The fault (if any) of the step that a request to `endpoint` starts, on `session` when it already exists. */
export function faultOfStart(s: EngineContext, endpoint: EndpointId, session?: string): StepFault {
  const rule = s.faults.takeSessionFault({ at: 'start', endpoint, ...(session === undefined ? {} : { session }) });
  if (rule?.kind === 'session-status') return { fails: false, running_status: rule.status };
  return { fails: rule?.kind === 'session-failure' };
}

/** Whether a session-failure rule naming `session` fails the step of it that is ending now. */
export function failsAtEnd(s: EngineContext, session: string): boolean {
  return s.faults.takeSessionFault({ at: 'end', session }) !== undefined;
}

/** A step-finishing function that first lets a session-failure rule naming the session fail the ending step. */
export function withEndFaults<T extends { fails: boolean }, A extends unknown[]>(
  s: EngineContext,
  session: (record: T) => string,
  finish: (record: T, ...rest: A) => void,
): (record: T, ...rest: A) => void {
  return (record, ...rest) => {
    if (!record.fails && failsAtEnd(s, session(record))) record.fails = true;
    finish(record, ...rest);
  };
}
