// Whether a failed create may have reached the service (main/api/errors.ts neverSent, main/jobs/submit.ts
// lostAnswer): what never left this machine is safe to send again; what was sent and got no answer of the
// service's must be reconciled, never sent blindly again; a refusal of the service is an answer.
import { describe, expect, it } from 'vitest';
import * as api from '../../main/api/errors.ts';
import { lostAnswer } from '../../main/jobs/submit.ts';

const endpoint = 'POST /image-to-3d-sessions';
const timeout = (phase: 'connect' | 'headers' | 'body') =>
  new api.TimeoutError({ endpoint, phase, timeoutMs: 1000, idempotent: false });
const network = (code: string) => new api.NetworkError({ endpoint, code, detail: code, idempotent: false });
const answered = (status: number) => new api.ServiceResponseError({ endpoint, status, idempotent: false });

describe('a failed request: never sent, or sent with its answer lost', () => {
  it.each([
    ['an invalid request', new api.RequestValidationError({ endpoint, issues: [] }), true, false],
    ['no connection in time', timeout('connect'), true, false],
    ['no answer in time', timeout('headers'), false, true],
    ['a body cut in time', timeout('body'), false, true],
    ['a refused connection', network('ECONNREFUSED'), true, false],
    ['a connection reset while sending', network('ECONNRESET'), false, true],
    ['cancelled before the body was sent whole', new api.CancelledError({ endpoint, unsent: true }), true, false],
    ['cancelled after it went', new api.CancelledError({ endpoint }), false, true],
    ["an answer that is not the service's", new api.ProtocolError({ endpoint, problem: 'not-json' }), false, true],
    ["a 502 of the service's gateway", answered(502), false, true],
    ['a refusal (400)', answered(400), false, false],
    ['not an error of the client', new Error('other'), false, false],
  ])('%s: never sent %s, answer lost %s', (_what, error, never, lost) => {
    expect(api.neverSent(error)).toBe(never);
    expect(lostAnswer(error)).toBe(lost);
  });
});
