// The create screen: one form per operation of the service.
import { LocalEngineLine } from '../../components/local-engine.tsx';
import { AnimationForms } from './animation.tsx';
import { ImageTo3dForm } from './image-to-3d.tsx';
import { OlderFlowForm } from './older-flow/index.tsx';
import { RetopologyForm } from './retopology.tsx';
import { StyleForm, TextToImageForm } from './text-to-image.tsx';

export const CREATE_FORMS = [
  { id: 'image-to-3d', label: 'Image to 3D' },
  { id: 'step-by-step', label: 'Step by step (older flow)' },
  { id: 'text-to-image', label: 'Text to image & styles' },
  { id: 'animation', label: 'Animation' },
  { id: 'retopology', label: 'Retopology' },
] as const;

export type CreateFormId = (typeof CREATE_FORMS)[number]['id'];

export function Create({ form }: { form: string | undefined }) {
  const current = (CREATE_FORMS.find((f) => f.id === form)?.id ?? 'image-to-3d') as CreateFormId;
  return (
    <>
      <h1>Create</h1>
      <nav class="tabs" aria-label="Kinds of job">
        {CREATE_FORMS.map((f) => (
          <a key={f.id} href={`#/create/${f.id}`} aria-current={f.id === current ? 'page' : undefined}>
            {f.label}
          </a>
        ))}
      </nav>
      <div class="panel">
        <LocalEngineLine />
        {current === 'image-to-3d' && <ImageTo3dForm />}
        {current === 'step-by-step' && <OlderFlowForm />}
        {current === 'text-to-image' && (
          <>
            <TextToImageForm />
            <hr />
            <StyleForm />
          </>
        )}
        {current === 'animation' && <AnimationForms />}
        {current === 'retopology' && <RetopologyForm />}
      </div>
    </>
  );
}
