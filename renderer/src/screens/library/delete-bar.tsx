// Acting on the selected entries: select all on the page, clear, and delete (after a confirm that says
// what goes — the records and cached files on this computer — and what stays: the service's copy).
import { useState } from 'preact/hooks';
import { getBridge } from '../../../bridge/index.ts';
import { pushNotice } from '../../app-state.ts';
import { noteRemovedJobs } from '../../batch.ts';
import { ErrorBox } from '../../components/ui.tsx';
import { useAction } from '../../use-action.ts';

export function SelectionBar(props: {
  selected: readonly string[];
  pageIds: readonly string[];
  onSelect: (ids: readonly string[]) => void;
  onDeleted: () => void;
}) {
  const { selected, pageIds } = props;
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useAction();
  const n = selected.length;
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const entries = `${n} ${n === 1 ? 'entry' : 'entries'}`;
  const remove = () =>
    run(async () => {
      const outcome = await getBridge().call('jobs.delete', { ids: [...selected] });
      noteRemovedJobs(outcome.deleted);
      setConfirming(false);
      props.onSelect([]);
      props.onDeleted();
      pushNotice(
        'info',
        `Deleted ${entries} from the library (${outcome.files} cached file${outcome.files === 1 ? '' : 's'}). ${outcome.note}`,
      );
    });
  return (
    <fieldset class="selection-bar">
      <legend class="visually-hidden">Selected entries</legend>
      <label>
        <input
          type="checkbox"
          checked={allOnPage}
          aria-label="Select every entry on this page"
          onChange={(e) =>
            props.onSelect(
              e.currentTarget.checked
                ? [...new Set([...selected, ...pageIds])]
                : selected.filter((id) => !pageIds.includes(id)),
            )
          }
        />
        {n === 0 ? 'Select all on this page' : `${entries} selected`}
      </label>
      {n > 0 && (
        <>
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
            Delete…
          </button>
          <button type="button" onClick={() => props.onSelect([])}>
            Clear selection
          </button>
        </>
      )}
      {confirming && n > 0 && (
        <div class="confirm" role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-text">
          <p id="delete-title">
            <strong>Delete {entries} from this library?</strong>
          </p>
          <p id="delete-text">
            Their records and cached files on this computer are deleted (an older-flow session with all its steps). The
            service's copy is not deleted: it stays in your account there.
          </p>
          <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
            {busy ? 'Deleting…' : `Delete ${entries}`}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            Keep them
          </button>
          <ErrorBox error={error} title="Nothing was deleted." />
        </div>
      )}
    </fieldset>
  );
}
