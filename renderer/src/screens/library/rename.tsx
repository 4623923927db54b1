// Renaming a library entry in place: the name becomes a field, Enter or Save keeps it (blank: back to
// the input file name or prompt), Escape or Cancel leaves it as it was.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { getBridge } from '../../../bridge/index.ts';
import { ErrorBox } from '../../components/ui.tsx';
import { useAction } from '../../use-action.ts';
import { jobTitle } from '../../util.ts';

export function RenameForm({ job, onDone }: { job: JobView; onDone: (renamed?: JobView) => void }) {
  const [name, setName] = useState(jobTitle(job));
  const { busy, error, run } = useAction();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const save = () =>
    run(async () => {
      const renamed = await getBridge().call('jobs.rename', { id: job.id, name: name.trim() === '' ? null : name });
      onDone(renamed);
    });
  return (
    <form
      class="rename"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
    >
      <label class="visually-hidden" for={`rename-${job.id}`}>
        New name for {jobTitle(job)}
      </label>
      <input
        id={`rename-${job.id}`}
        ref={input}
        value={name}
        maxLength={200}
        onInput={(e) => setName(e.currentTarget.value)}
        placeholder={job.label}
      />
      <button type="submit" disabled={busy}>
        Save
      </button>
      <button type="button" onClick={() => onDone()}>
        Cancel
      </button>
      <ErrorBox error={error} title="The name was not saved." />
    </form>
  );
}
