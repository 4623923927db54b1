// Retopology (POST /v3/sessions with type retopology). The service takes the input mesh as an https URL of
// a GLB or an ASSET_ id (no upload), so the model comes from one of three places: a model of the library
// (sent as the service's own URL of its GLB, or its asset id), a file of this computer (GLB, OBJ or FBX:
// handed to the embedded local engine through a link on 127.0.0.1; a remote service cannot reach this
// computer, so it is refused with what to do), or a URL / asset id typed in. A link to this computer's cache
// or engine is never sent to a remote service.
import { useEffect, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { RETOPOLOGY_MODELS, createRetopologyRequest } from '../../../../shared/contract/v3.ts';
import { fileNameOf } from '../../../../shared/url-name.ts';
import { getBridge, getTransport } from '../../../bridge/index.ts';
import { appState } from '../../app-state.ts';
import { RadioChoices, Select } from '../../components/choices.tsx';
import { FieldMessages } from '../../components/ui.tsx';
import { takeHandOff } from '../../next-step.ts';
import { isThisComputer, serviceMeshOf } from '../../service-mesh.ts';
import { useStore } from '../../store.ts';
import { formatBytes, jobTitle, toShownError } from '../../util.ts';
import { bindFields, useValues } from './fields.ts';
import { FormFooter, useCreateForm, FormShell } from './form.tsx';
import { CheckboxField, SelectField, TextField } from './inputs.tsx';

type Source = 'library' | 'file' | 'url';
const SOURCES: Record<Source, string> = {
  library: 'The library',
  file: 'A file on this computer',
  url: 'A URL or asset id',
};
/** The form's own fields: the mesh typed in (input.mesh when it comes from a URL), input.model and input.quads. */
interface Fields {
  typed: string;
  model: (typeof RETOPOLOGY_MODELS)[number];
  quads: boolean;
}
const MODEL_LABELS: Record<Fields['model'], string> = {
  swift: 'swift: up to 8K faces, about 5–10 minutes, light topology for mobile games',
  precision: 'precision: high face count, up to 50 minutes, keeps fine detail',
};
const MODEL_FILE = /\.(glb|obj|fbx)$/i;
const MODEL_KINDS = ['image_to_3d', 'image_to_3d_older', 'v3_session'] as const;

export function RetopologyForm() {
  const handed = useState(() => takeHandOff('retopology'))[0];
  const [source, setSource] = useState<Source>('library');
  const [jobs, setJobs] = useState<JobView[] | undefined>();
  const [picked, setPicked] = useState(handed?.jobId ?? '');
  const [file, setFile] = useState<File | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const [values, set] = useValues<Fields>({ typed: '', model: 'swift', quads: true });
  const { typed, model, quads } = values;
  const remote = useStore(appState).info?.connection.origin !== 'engine';
  useEffect(() => {
    getBridge()
      .call('jobs.list', { kinds: [...MODEL_KINDS], state: 'succeeded', limit: 200 })
      .then((r) =>
        setJobs(
          r.jobs.filter(
            (j) => j.remoteId && (j.kind !== 'image_to_3d_older' || j.step === 'preview' || j.step === 'refine'),
          ),
        ),
      )
      .catch(() => setJobs([]));
  }, []);
  const pickedJob = jobs?.find((j) => j.id === picked);
  const fromLibrary = pickedJob ? serviceMeshOf(pickedJob, remote) : undefined;
  const mesh =
    source === 'url' ? typed : source === 'library' && fromLibrary && 'mesh' in fromLibrary ? fromLibrary.mesh : '';
  const body = (m = mesh) => ({ type: 'retopology', input: { mesh: m, model, quads } });
  const form = useCreateForm(source === 'file' ? undefined : createRetopologyRequest, body);
  const field = bindFields(form, values, set, 'input.');
  const labelOf = (m: string) => fileNameOf(m).slice(0, 60);
  return (
    <FormShell
      titleId="form-title"
      onSubmit={async () => {
        setFileError(undefined);
        if (source === 'library') {
          if (!pickedJob) return setFileError('Choose a model of the library.');
          if ('reason' in fromLibrary!) return setFileError(fromLibrary.reason);
          return void form.submit({
            endpoint: 'createRetopology',
            body: body(),
            label: `Retopology of ${jobTitle(pickedJob)}`.slice(0, 200),
          });
        }
        if (source === 'url') {
          if (remote && isThisComputer(typed))
            return setFileError(
              'This is a link to this computer, which the service cannot read: give an https URL it can fetch, or an ASSET_ id.',
            );
          return void form.submit({
            endpoint: 'createRetopology',
            body: body(),
            label: `Retopology ${labelOf(typed)}`,
          });
        }
        if (!file) return setFileError('Choose a GLB, OBJ or FBX file.');
        if (!MODEL_FILE.test(file.name))
          return setFileError(
            `${file.name} is not a GLB, OBJ or FBX file: retopology takes a model in one of these formats.`,
          );
        try {
          const ref = await getTransport().fileRef(file);
          const { url } = await getBridge().call('files.meshLink', { file: ref, name: file.name });
          await form.submit(
            { endpoint: 'createRetopology', body: body(url), label: `Retopology of ${file.name}`.slice(0, 200) },
            createRetopologyRequest,
          );
        } catch (e) {
          setFileError(toShownError(e).message);
        }
      }}
    >
      <h2 id="form-title">Retopology</h2>
      <fieldset class="segmented">
        <legend>Input model from</legend>
        <RadioChoices name="retopo-source" value={source} labels={SOURCES} onChange={setSource} />
      </fieldset>
      {source === 'library' && (
        <div class={`field${fileError ? ' invalid' : ''}`}>
          <label for="retopo-job">Input model (a finished job)</label>
          <Select id="retopo-job" value={picked} onChange={(v) => (setPicked(v), setFileError(undefined))}>
            <option value="">
              {jobs === undefined
                ? 'Loading the library…'
                : jobs.length
                  ? 'Choose…'
                  : 'No finished model in the library yet'}
            </option>
            {pickedJob === undefined && handed && <option value={handed.jobId}>{handed.jobId}</option>}
            {(jobs ?? []).map((j) => (
              <option key={j.id} value={j.id}>
                {jobTitle(j)}
              </option>
            ))}
          </Select>
          {fromLibrary && 'reason' in fromLibrary && <p class="hint">{fromLibrary.reason}</p>}
        </div>
      )}
      {source === 'file' && (
        <div class={`field${fileError ? ' invalid' : ''}`}>
          <label for="retopo-file">GLB, OBJ or FBX file</label>
          <input
            id="retopo-file"
            type="file"
            accept=".glb,.obj,.fbx"
            onChange={(e) => (setFile(e.currentTarget.files?.[0]), setFileError(undefined))}
          />
          <p class="hint">
            {file
              ? `${file.name} (${formatBytes(file.size)})`
              : remote
                ? 'The service reads a model only from an https URL or an asset id, not from this computer: paste a URL instead.'
                : 'The local engine reads it from this computer.'}
          </p>
        </div>
      )}
      {source === 'url' && (
        <TextField
          id="retopo-mesh"
          label="Mesh: GLB URL or asset id"
          {...field('typed', 'input.mesh')}
          placeholder="https://…/model.glb or ASSET_…"
        />
      )}
      <FieldMessages
        id="retopo-source-errors"
        messages={fileError ? [fileError] : source !== 'url' ? form.errors('input.mesh') : undefined}
      />
      <SelectField
        id="retopo-model"
        label="Retopology model"
        options={RETOPOLOGY_MODELS}
        defaultValue="swift"
        labels={MODEL_LABELS}
        {...field('model')}
      />
      <CheckboxField
        id="retopo-quads"
        label="Convert triangles to quads where possible"
        {...field('quads')}
        hint="Default on; the result may mix quads and triangles."
      />
      <FormFooter form={form} label="Start retopology" endpoint="createRetopology" created="Retopology" />
    </FormShell>
  );
}
