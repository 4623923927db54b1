// Step 1 of the step-by-step flow: the four spin views (shown as soon as each is cached), the one chosen for the
// preview, and Regenerate spin.
import { submitSpinRequest } from '../../../../../shared/contract/image-to-3d.ts';
import type { JobView } from '../../../../../shared/bridge/contract.ts';
import { getTransport } from '../../../../bridge/index.ts';
import { ErrorBox, Progress, StateBadge } from '../../../components/ui.tsx';
import { useOutputs } from '../../../outputs.ts';
import type { ShownError } from '../../../util.ts';
import { type CreateOutput, useCreateForm } from '../form.tsx';
import { type Spin, spinIndex } from './spins.ts';

export function SpinStep(props: {
  code: string;
  image: string;
  spinJob: JobView | undefined;
  spinReady: boolean;
  spins: Spin[] | undefined;
  spinError: ShownError | undefined;
  chosen: number;
  onChoose: (index: number) => void;
  /** A new spin was asked for: its job. */
  onRegenerated: (out: CreateOutput) => void;
}) {
  const { code, image, spinJob, spinReady, spins } = props;
  const spinForm = useCreateForm(submitSpinRequest, () => ({ session_code: code, image_urls: [image] }));
  // Kept fresh by cache.output events: a spin view shows as soon as its file is cached.
  const outputs = useOutputs(code);
  const cachedSpin = (index: number) =>
    outputs?.find((o) => spinIndex(o.kind) === index && o.state === 'complete' && o.url)?.url ?? undefined;
  return (
    <li class="step">
      <h4>1. Choose a spin view</h4>
      {spinJob && !spinReady && (
        <div class="created-status" role="status">
          <span>Making the spin views…</span>
          <StateBadge job={spinJob} />
          <Progress percent={spinJob.percent} label="Progress of the spin views" />
        </div>
      )}
      {spinJob?.state === 'failed' && <p class="job-error">{spinJob.error ?? 'The spin views could not be made.'}</p>}
      <ErrorBox error={props.spinError} />
      {spinReady && spins && spins.length === 0 && (
        <p class="muted">
          No spin images yet. The service lists them once the spin is done; try Regenerate spin if this stays empty.
        </p>
      )}
      {spinReady && spins && spins.length > 0 && (
        <fieldset class="spins">
          <legend>Spin images ({spins.length})</legend>
          {spins.map((s) => {
            const shown = cachedSpin(s.index) ?? s.shown;
            return (
              <label key={s.index} class={`spin${props.chosen === s.index ? ' chosen' : ''}`}>
                <input
                  type="radio"
                  name="spin"
                  value={s.index}
                  checked={props.chosen === s.index}
                  onChange={() => props.onChoose(s.index)}
                />
                {shown.startsWith('/') || getTransport().kind === 'electron' ? (
                  <img src={shown} alt={`Spin view ${s.index + 1}`} width={128} height={128} />
                ) : (
                  <span class="spin-placeholder">Not cached yet</span>
                )}
                <span>Spin {s.index + 1}</span>
              </label>
            );
          })}
        </fieldset>
      )}
      {image !== '' && (
        <form
          class="inline-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const out = await spinForm.submit({
              endpoint: 'submitSpin',
              body: { session_code: code, image_urls: [image] },
              label: `${code} spin`,
            });
            if (out) props.onRegenerated(out);
          }}
        >
          <button type="submit" disabled={spinForm.busy || !spinReady}>
            Regenerate spin
          </button>
          <ErrorBox error={spinForm.error} />
        </form>
      )}
    </li>
  );
}
