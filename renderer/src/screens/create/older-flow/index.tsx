// The older step-by-step image-to-3D flow: create at the legacy address, pick one of the four spin
// images (or regenerate the spin), ask for a preview mesh, then refine it. The session being worked on is
// kept in the tab (sessionStorage) and its steps are found again among the jobs, so a reload comes back to
// where it was; the spin views show as soon as each is cached (cache.output events). One file per step beside
// this one: spin-step.tsx, preview-step.tsx, refine-step.tsx, held together by steps.tsx.
import { useState } from 'preact/hooks';
import { createImageTo3dLegacyRequest } from '../../../../../shared/contract/image-to-3d.ts';
import { bindFields, useValues } from '../fields.ts';
import { type CreateOutput, FormFooter, FormShell, useCreateForm } from '../form.tsx';
import { CheckboxField, emptyImage, ImageSourceInput, imageOf, TextField } from '../inputs.tsx';
import { type Session, saveSession, savedSession } from './session.ts';
import { Steps } from './steps.tsx';

export function OlderFlowForm() {
  const [values, set] = useValues({ image_url: emptyImage, model_version: '', auto_gen_3d: false });
  const image = values.image_url;
  const [session, setSessionState] = useState<Session | undefined>(savedSession);
  const setSession = (next: Session | undefined) => {
    saveSession(next);
    setSessionState(next);
  };
  const [resume, setResume] = useState('');
  const [spinResult, setSpinResult] = useState<CreateOutput | undefined>();
  const body = () => ({ ...values, image_url: imageOf(image) });
  const form = useCreateForm(createImageTo3dLegacyRequest, body);
  const field = bindFields(form, values, set);
  return (
    <div class="older-flow">
      <FormShell
        titleId="form-title"
        onSubmit={async () => {
          const sent = imageOf(image);
          const out = await form.submit({
            endpoint: 'createImageTo3dLegacy',
            body: body(),
            ...(image.fileName && { label: `${image.fileName} (step by step)` }),
          });
          if (out?.job?.remoteId) {
            setSession({ code: out.job.remoteId, image: sent });
            setSpinResult(out);
          }
        }}
      >
        <h2 id="form-title">Image to 3D, step by step</h2>
        <p class="hint">
          The older flow, sent to the legacy address: four spin views first, then a preview mesh from the one you
          choose, then a refined mesh.
        </p>
        <ImageSourceInput id="old-image" {...field('image_url')} />
        <div class="grid-2">
          <TextField
            id="old-model"
            label="Model version"
            {...field('model_version')}
            hint="Empty (default) selects the latest beta model."
          />
          <CheckboxField
            id="old-auto"
            label="Generate the 3D model automatically"
            {...field('auto_gen_3d')}
            hint="Default off: you choose the spin view and ask for the preview yourself."
          />
        </div>
        <FormFooter form={form} label="Create session" endpoint="createImageTo3dLegacy" />
      </FormShell>
      {!session && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (resume.trim().startsWith('SESSION_')) setSession({ code: resume.trim(), image: '' });
          }}
        >
          <TextField
            id="old-resume"
            label="Or continue a session"
            placeholder="SESSION_…"
            value={resume}
            onChange={setResume}
            hint="A session code of the step-by-step flow."
          />
          <button type="submit">Continue</button>
        </form>
      )}
      {session && (
        <>
          <Steps key={session.code} code={session.code} image={session.image} first={spinResult} />
          <button type="button" onClick={() => (setSpinResult(undefined), setSession(undefined))}>
            Close this session
          </button>
        </>
      )}
    </div>
  );
}
