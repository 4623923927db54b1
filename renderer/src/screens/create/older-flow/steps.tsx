// The steps of one session of the step-by-step flow, as they are now: what each step answered, the spin views
// and the one chosen, the refine's pivot (the preview's unless changed). A session continued after a reload, or
// by its code, finds the steps it had started among the jobs.
import { useEffect, useState } from 'preact/hooks';
import { type ShownError, toShownError } from '../../../util.ts';
import { useValues } from '../fields.ts';
import { type CreateOutput, useJob } from '../form.tsx';
import type { Vec3Text } from '../inputs.tsx';
import { PreviewStep } from './preview-step.tsx';
import { type RefineFields, RefineStep } from './refine-step.tsx';
import { pivotOf, rememberPreviewPivot, savedSession, stepJobs } from './session.ts';
import { SpinStep } from './spin-step.tsx';
import { findSpins, type Spin } from './spins.ts';

export function Steps({ code, image, first }: { code: string; image: string; first: CreateOutput | undefined }) {
  const [spinOut, setSpinOut] = useState<CreateOutput | undefined>(first);
  const spinJob = useJob(spinOut?.job?.id, spinOut?.job);
  const [spins, setSpins] = useState<Spin[] | undefined>();
  const [spinError, setSpinError] = useState<ShownError | undefined>();
  const [chosen, setChosen] = useState(0);
  const [previewOut, setPreviewOut] = useState<CreateOutput | undefined>();
  const previewJob = useJob(previewOut?.job?.id, previewOut?.job);
  const [refine, setRefine] = useValues<RefineFields>({ pivot_point: ['0', '0', '0'] });
  const setRefinePivot = (pivot: Vec3Text) => setRefine('pivot_point', pivot);
  const [refineOut, setRefineOut] = useState<CreateOutput | undefined>();
  const spinReady = !spinOut || spinJob?.state === 'succeeded';

  // A session continued (after a reload, or by its code): the steps it had started, as they are now.
  useEffect(() => {
    if (first) return;
    let live = true;
    stepJobs(code)
      .then((steps) => {
        if (!live) return;
        if (steps.spin) setSpinOut(steps.spin);
        if (steps.preview) {
          setPreviewOut(steps.preview);
          const p =
            savedSession()?.code === code
              ? (savedSession()?.previewPivot ?? pivotOf(steps.preview.job?.result))
              : pivotOf(steps.preview.job?.result);
          if (p) setRefinePivot(p);
        }
        if (steps.refine) setRefineOut(steps.refine);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [code]);

  useEffect(() => {
    if (!spinReady) return;
    let live = true;
    setSpinError(undefined);
    findSpins(code, spinJob)
      .then((s) => live && setSpins(s))
      .catch((e: unknown) => live && setSpinError(toShownError(e)));
    return () => {
      live = false;
    };
  }, [spinReady, spinJob?.updatedAt]);

  return (
    <section class="steps" aria-label={`Steps of ${code}`}>
      <h3>
        Session <code>{code}</code>
      </h3>
      <ol class="step-list">
        <SpinStep
          code={code}
          image={image}
          spinJob={spinJob}
          spinReady={spinReady}
          spins={spins}
          spinError={spinError}
          chosen={chosen}
          onChoose={setChosen}
          onRegenerated={(out) => {
            setSpins(undefined);
            setSpinOut(out);
          }}
        />
        <PreviewStep
          code={code}
          spins={spins}
          chosen={chosen}
          previewOut={previewOut}
          onPreview={(out, pivot) => {
            setPreviewOut(out);
            setRefinePivot(pivot); // the refined mesh keeps the preview's pivot unless changed here
            rememberPreviewPivot(code, pivot);
          }}
        />
        <RefineStep
          code={code}
          previewOut={previewOut}
          previewJob={previewJob}
          refine={refine}
          setRefine={setRefine}
          refineOut={refineOut}
          onRefine={setRefineOut}
        />
      </ol>
    </section>
  );
}
