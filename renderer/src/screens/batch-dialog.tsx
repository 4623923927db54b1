// The confirm of a drop: the files and what each becomes (a picture: image to 3D; an FBX or zip: an
// animation upload), checked by main as the batch will check them (batch-check.ts: a file refused there says
// why and is not counted), the image-to-3D settings of the pictures, the animation prompts of the meshes, the
// cost of the files that will be sent with the balance after, and one Submit. Cancel (or Escape) sends nothing.
import { useEffect, useRef, useState } from 'preact/hooks';
import { offeredFiles, startBatch, type OfferedFile } from '../batch.ts';
import { useBatchCheck, type FileVerdict } from '../batch-check.ts';
import { CostLine } from '../components/cost-line.tsx';
import { TableHead } from '../components/ui.tsx';
import { useQuote } from '../credits.ts';
import { formatBytes } from '../util.ts';
import { ImageTo3dSettingsFields, useImageTo3dSettings } from './create/image-to-3d-settings.tsx';
import { TextField } from './create/inputs.tsx';

const KIND_TEXT = { image: 'Picture → image to 3D', mesh: 'FBX/zip → animation upload', checking: 'Checking…' };
const verdictText = (v: FileVerdict) => (v.kind === 'refused' ? `Refused: ${v.why}` : KIND_TEXT[v.kind]);

export function BatchDialog({ files }: { files: readonly OfferedFile[] }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [settings, set] = useImageTo3dSettings();
  const [prompts, setPrompts] = useState('');
  const check = useBatchCheck(files);
  const kinds = check.verdicts.map((v) => v.kind);
  const images = kinds.filter((k) => k === 'image').length;
  const meshes = kinds.filter((k) => k === 'mesh').length;
  const texts = prompts
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const q = useQuote([
    { endpoint: 'createImageTo3d', count: images, what: images === 1 ? 'image-to-3D create' : 'image-to-3D creates' },
    { endpoint: 'uploadAnimationMesh', count: meshes, what: meshes === 1 ? 'animation upload' : 'animation uploads' },
    {
      endpoint: 'submitTextAnimations',
      count: texts.length > 0 ? meshes : 0,
      what: meshes === 1 ? 'prompt request' : 'prompt requests',
    },
  ]);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const close = () => offeredFiles.set(undefined);
  const submit = () => {
    close();
    location.hash = '#/queue';
    // The refs the check made (an upload is not made twice); a refused file goes as not sent, with why.
    const checked = files.map((f, i) => {
      const v = check.verdicts[i]!;
      return v.kind === 'refused' ? { ...f, refused: v.why } : 'ref' in v ? { ...f, ref: v.ref } : f;
    });
    void startBatch(checked, {
      ...(images > 0 && { imageOptions: settings }),
      ...(meshes > 0 && texts.length > 0 && { animationTexts: texts }),
    });
  };
  const sendable = images + meshes;
  const refused = kinds.filter((k) => k === 'refused').length;
  return (
    <dialog
      ref={ref}
      class="batch-dialog"
      aria-labelledby="batch-dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="batch-dialog-title">
          {refused > 0 && sendable > 0
            ? `Submit ${sendable} of ${files.length} dropped files?`
            : `Submit ${files.length} dropped file${files.length === 1 ? '' : 's'}?`}
        </h2>
        <p class="hint">
          Nothing is sent until you submit. Each file is checked first; a bad one is reported and the others go on.
          {check.checking && ' Checking the files first: the cost counts only those that will be sent…'}
          {refused > 0 &&
            ` ${refused === 1 ? 'One file is' : `${refused} files are`} refused and never sent (see why below); the cost counts only the ${sendable} that will be.`}
        </p>
        {check.error && <p class="hint">{check.error}</p>}
        <div class="batch-dialog-files">
          <table>
            <TableHead columns={['File', 'Becomes', 'Size']} />
            <tbody>
              {files.map((f, i) => (
                <tr
                  key={`${i}-${f.name}`}
                  data-file={f.name}
                  data-kind={kinds[i]}
                  class={kinds[i] === 'refused' ? 'refused' : undefined}
                >
                  <td>{f.name}</td>
                  <td class={kinds[i] === 'refused' ? 'item-error' : undefined}>{verdictText(check.verdicts[i]!)}</td>
                  <td class="muted">{formatBytes(f.size)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {images > 0 && (
          <fieldset class="batch-options" data-kind="image">
            <legend>
              Image to 3D settings ({images} picture{images === 1 ? '' : 's'})
            </legend>
            <div class="grid-4">
              <ImageTo3dSettingsFields idPrefix="batch" value={settings} onChange={set} compact />
            </div>
          </fieldset>
        )}
        {meshes > 0 && (
          <fieldset class="batch-options" data-kind="mesh">
            <legend>
              Animation ({meshes} FBX/zip file{meshes === 1 ? '' : 's'})
            </legend>
            <TextField
              id="batch-prompts"
              label="Animations, one per line (optional)"
              multiline
              rows={2}
              value={prompts}
              onChange={setPrompts}
              placeholder={'walk forward\nwave with the right hand'}
              hint="Asked of every mesh once it is uploaded. Empty: the meshes are only uploaded."
            />
          </fieldset>
        )}
        {check.checking ? (
          <p class="cost-line" id="batch-cost">
            Checking the files before the quote…
          </p>
        ) : (
          <CostLine quote={q} id="batch-cost" />
        )}
        <div class="dialog-actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button
            type="submit"
            class="primary"
            disabled={check.checking || sendable === 0 || q.refusal !== undefined}
            aria-describedby="batch-cost"
          >
            {refused > 0
              ? `Submit ${sendable}, ${refused} refused`
              : `Submit ${files.length} file${files.length === 1 ? '' : 's'}`}
          </button>
        </div>
        {!check.checking && sendable === 0 && (
          <p class="item-error">None of these files can be sent (see why above): nothing to submit.</p>
        )}
      </form>
    </dialog>
  );
}
