// The viewer's glTF validation: the Khronos validator on the open file, on demand.
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadValidator, type ModelSource, type ValidationSummary } from '../../../viewer/index.ts';

type Validation =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; report: ValidationSummary }
  | { state: 'error'; message: string };

/** The Khronos glTF validator on the open file, on demand (renderer/viewer/validate.ts: loaded on first use, offline). */
export function ValidationPanel({ source }: { source: ModelSource }) {
  const [v, setV] = useState<Validation>({ state: 'idle' });
  const current = useRef(source);
  useEffect(() => {
    current.current = source;
    setV({ state: 'idle' });
  }, [source]);
  const run = () => {
    setV({ state: 'running' });
    loadValidator()
      .then((m) => m.validateModel(source))
      .then(
        (report) => current.current === source && setV({ state: 'done', report }),
        (e: unknown) =>
          current.current === source && setV({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
  };
  const r = v.state === 'done' ? v.report : undefined;
  return (
    <section class="viewer-validation" data-state={v.state} aria-label="glTF validation">
      <button
        type="button"
        disabled={v.state === 'running'}
        title="Check the file against the glTF 2.0 specification (Khronos glTF validator, runs here)"
        onClick={run}
      >
        {v.state === 'running' ? 'Validating…' : 'Validate'}
      </button>
      {v.state === 'error' && <p class="item-error">The validator failed: {v.message}</p>}
      {r && (
        <div aria-live="polite">
          <p class={r.errors > 0 ? 'validation-counts item-error' : 'validation-counts'}>
            <span data-count="errors">{r.errors}</span> {r.errors === 1 ? 'error' : 'errors'},{' '}
            <span data-count="warnings">{r.warnings}</span> {r.warnings === 1 ? 'warning' : 'warnings'},{' '}
            <span data-count="infos">{r.infos}</span> {r.infos === 1 ? 'info' : 'infos'},{' '}
            <span data-count="hints">{r.hints}</span> {r.hints === 1 ? 'hint' : 'hints'}
          </p>
          {r.messages.length > 0 && (
            <ul class="validation-messages">
              {r.messages.map((m, i) => (
                <li key={i} data-severity={m.severity}>
                  <code>{m.code}</code> {m.message}
                  {m.pointer && <span class="muted"> at {m.pointer}</span>}
                </li>
              ))}
              {r.more > 0 && <li class="muted">…and {r.more} more</li>}
            </ul>
          )}
          <p class="hint">Khronos glTF validator {r.version}</p>
        </div>
      )}
    </section>
  );
}
