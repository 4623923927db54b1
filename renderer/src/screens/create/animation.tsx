// Mesh animation: upload an FBX (or a zip of FBX files) by file or URL, then animate it from text prompts.
import { useEffect, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { textMultiRequest, uploadMeshUrlRequest } from '../../../../shared/contract/animation.ts';
import { fileNameOf } from '../../../../shared/url-name.ts';
import { getBridge, getTransport } from '../../../bridge/index.ts';
import { RadioChoices, Select } from '../../components/choices.tsx';
import { FieldMessages, Progress } from '../../components/ui.tsx';
import { formatBytes, jobTitle, record, toShownError } from '../../util.ts';
import { FbxCheckPanel } from '../viewer/fbx-check-panel.tsx';
import { PromptStatuses } from '../viewer/animation-job.tsx';
import { bindFields, useValues } from './fields.ts';
import { CreatedJob, FormFooter, useCreateForm, useJob, type CreateOutput, FormShell } from './form.tsx';
import { TextField } from './inputs.tsx';
import { takeHandOff } from '../../next-step.ts';

const MESH_FILE = /\.(fbx|zip)$/i;
const MESH_FROM = { file: 'A file on this computer', url: 'A URL' };

export function AnimationForms() {
  const [sessionCode, setSessionCode] = useState('');
  return (
    <>
      <UploadForm onSession={setSessionCode} />
      <TextPromptsForm sessionCode={sessionCode} setSessionCode={setSessionCode} />
    </>
  );
}

function UploadForm({ onSession }: { onSession: (code: string) => void }) {
  const [mode, setMode] = useState<'file' | 'url'>('file');
  // From a model's "Animate this model": its FBX, read from the cache.
  const [file, setFile] = useState<File | undefined>(() => takeHandOff('animation')?.file);
  const [values, set] = useValues({ mesh_url: '' });
  const url = values.mesh_url;
  const [progress, setProgress] = useState<{ sent: number; total: number } | undefined>();
  // The second leg: the main process sending the file on to the service (create.upload events).
  const [sending, setSending] = useState<{ sent: number; total: number } | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const form = useCreateForm(mode === 'url' ? uploadMeshUrlRequest : undefined, () =>
    mode === 'url' ? { mesh_url: url } : {},
  );
  const field = bindFields(form, values, set);
  const job = useJob(form.result?.job?.id, form.result?.job);
  useEffect(() => {
    if (job?.remoteId) onSession(job.remoteId);
  }, [job?.remoteId]);
  return (
    <FormShell
      titleId="anim-title"
      onSubmit={async () => {
        setFileError(undefined);
        if (mode === 'url') {
          await form.submit({
            endpoint: 'uploadAnimationMesh',
            body: { mesh_url: url },
            label: fileNameOf(url).slice(0, 80) || 'Animation',
          });
          return;
        }
        if (!file) return setFileError('Choose an FBX file or a zip of FBX files.');
        if (!MESH_FILE.test(file.name))
          return setFileError(
            `${file.name} is not an FBX or zip file: animation needs an FBX file or a zip of FBX files.`,
          );
        const operationId = `op_${crypto.randomUUID()}`;
        const off = getBridge().on(
          'create.upload',
          (p) => p.operationId === operationId && setSending({ sent: p.sent, total: p.total }),
        );
        try {
          setProgress({ sent: 0, total: file.size });
          const ref = await getTransport().fileRef(file, setProgress);
          setProgress(undefined);
          setSending({ sent: 0, total: file.size });
          await form.submit({ endpoint: 'uploadAnimationMesh', file: ref, label: file.name, operationId });
        } catch (err) {
          setFileError(toShownError(err).message);
        } finally {
          off();
          setProgress(undefined);
          setSending(undefined);
        }
      }}
    >
      <h2 id="anim-title">Animate a mesh: upload</h2>
      <p class="hint">
        The mesh must face the same way as the service's reference mesh. Upload one FBX file, or a zip of FBX files.
      </p>
      <fieldset class="segmented">
        <legend>Mesh from</legend>
        <RadioChoices name="anim-mode" value={mode} labels={MESH_FROM} onChange={setMode} />
      </fieldset>
      {mode === 'file' ? (
        <div class={`field${fileError ? ' invalid' : ''}`}>
          <label for="anim-file">FBX or zip file</label>
          <input
            id="anim-file"
            type="file"
            accept=".fbx,.zip,application/zip"
            aria-describedby={fileError ? 'anim-file-errors' : undefined}
            onChange={(e) => (setFile(e.currentTarget.files?.[0]), setFileError(undefined))}
          />
          {file && <p class="hint">{`${file.name} (${formatBytes(file.size)})`}</p>}
          <FieldMessages id="anim-file-errors" messages={fileError ? [fileError] : undefined} />
          {file && MESH_FILE.test(file.name) && <FbxCheckPanel file={file} />}
        </div>
      ) : (
        <TextField
          id="anim-url"
          label="URL of an FBX or zip file"
          type="url"
          {...field('mesh_url')}
          placeholder="https://…/character.fbx"
        />
      )}
      {progress && (
        <div class="upload-progress">
          <span>Uploading…</span>
          <Progress percent={progress.total ? (100 * progress.sent) / progress.total : null} label="Upload progress" />
        </div>
      )}
      {sending && (
        <div class="upload-progress" data-leg="service">
          <span>Sending to the service…</span>
          <Progress
            percent={sending.total ? (100 * sending.sent) / sending.total : null}
            label="Progress of sending the file to the service"
          />
        </div>
      )}
      <FormFooter
        form={form}
        label="Upload mesh"
        busyLabel="Uploading…"
        endpoint="uploadAnimationMesh"
        created="Animation upload"
      />
    </FormShell>
  );
}

/** The name of the character a session code is the upload of (its library name), else the code. */
function characterName(sessions: readonly JobView[], sessionCode: string): string {
  const session = sessions.find((s) => s.remoteId === sessionCode);
  return session ? jobTitle(session) : sessionCode;
}

function TextPromptsForm({
  sessionCode,
  setSessionCode,
}: {
  sessionCode: string;
  setSessionCode: (v: string) => void;
}) {
  const [text, setText] = useState('');
  const [sessions, setSessions] = useState<JobView[]>([]);
  const texts = text
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const body = () => ({ session_code: sessionCode, texts });
  const form = useCreateForm(textMultiRequest, body);
  // The session code is the page's (an upload above fills it in); the prompts' text is this form's.
  const field = bindFields(form, { session_code: sessionCode, texts: text }, (key, value) =>
    key === 'session_code' ? setSessionCode(value) : setText(value),
  );
  useEffect(() => {
    getBridge()
      .call('jobs.list', { kinds: ['animation_session'], limit: 50 })
      .then((r) => setSessions(r.jobs.filter((j) => j.remoteId)))
      .catch(() => {});
  }, [sessionCode]);
  return (
    <FormShell
      titleId="prompts-title"
      onSubmit={() => {
        void form.submit({
          endpoint: 'submitTextAnimations',
          body: body(),
          // Named after the character (its upload's name) with the prompts as detail, as a batch names it.
          label: `${characterName(sessions, sessionCode)}: ${texts.join(', ')}`.slice(0, 120),
        });
      }}
    >
      <h2 id="prompts-title">Animate a mesh: text prompts</h2>
      <TextField
        id="prompts-session"
        label="Animation session"
        {...field('session_code')}
        placeholder="SESSION_…"
        hint="Filled in when an upload above is done; or pick an earlier one below."
      />
      {sessions.length > 0 && (
        <div class="field">
          <label for="prompts-pick">Earlier uploads</label>
          <Select
            id="prompts-pick"
            value={sessions.some((s) => s.remoteId === sessionCode) ? sessionCode : ''}
            onChange={(code) => code && setSessionCode(code)}
          >
            <option value="">Choose…</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.remoteId!}>
                {s.label || s.remoteId}
                {s.rawStatus ? ` (${s.rawStatus})` : ''}
              </option>
            ))}
          </Select>
        </div>
      )}
      <TextField
        id="prompts-texts"
        label="Animations, one per line"
        multiline
        rows={4}
        {...field('texts')}
        placeholder={'walk forward\nwave with the right hand'}
      />
      <FormFooter
        form={form}
        label={`Animate (${texts.length} prompt${texts.length === 1 ? '' : 's'})`}
        endpoint="submitTextAnimations"
      />
      {form.result && <PromptResults result={form.result} />}
    </FormShell>
  );
}

/** Each prompt's status as the job is read (useJob follows it live). */
function LivePromptStatuses({ result }: { result: CreateOutput }) {
  const job = useJob(result.job?.id, result.job);
  return job ? <PromptStatuses job={job} /> : null;
}

/** The per-text answers of text-multi: a text the service refused is shown with its message. */
function PromptResults({ result }: { result: CreateOutput }) {
  const responses = record(result.job?.result).responses;
  const items = Array.isArray(responses) ? responses.map(record) : [];
  return (
    <>
      {items.length > 0 && (
        <ul class="prompt-results" aria-label="Answers per prompt">
          {items.map((item, i) => (
            <li key={i} class={item.isError ? 'prompt-error' : 'prompt-ok'}>
              <strong>{String(item.text ?? '')}</strong>:{' '}
              {item.isError
                ? `refused — ${String(item.message || 'the service gave no reason')}`
                : String(item.message || 'accepted')}
            </li>
          ))}
        </ul>
      )}
      <CreatedJob result={result} what="Text animations" />
      <LivePromptStatuses result={result} />
    </>
  );
}
