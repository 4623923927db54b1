// One library entry: its picture, its name (renamable), kind, session and date, an older-flow session's
// steps, its state and progress, and its actions; in the library, a box to select it.
import { useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { kindLabel } from '../../../../shared/kinds/index.ts';
import { LocalEngineBadge } from '../../components/local-engine.tsx';
import { Progress, StateBadge } from '../../components/ui.tsx';
import { formatTime, jobTitle, stepLabel } from '../../util.ts';
import { JobActions } from '../job-actions.tsx';
import { RenameForm } from './rename.tsx';
import { latestStep, SessionSteps } from './steps.tsx';
import { Thumbnail } from './thumbnail.tsx';

export interface Selection {
  selected: boolean;
  onSelect: (selected: boolean) => void;
}

export function JobRow({
  job,
  selection,
  onRenamed,
}: {
  job: JobView;
  selection?: Selection;
  onRenamed?: (job: JobView) => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const shown = latestStep(job);
  const title = jobTitle(job);
  return (
    <li
      class={`job-row state-${shown.state}${selection ? ' selectable' : ''}${selection?.selected ? ' selected' : ''}`}
      data-job-id={job.id}
    >
      {selection && (
        <input
          type="checkbox"
          class="select"
          aria-label={`Select ${title}`}
          checked={selection.selected}
          onChange={(e) => selection.onSelect(e.currentTarget.checked)}
        />
      )}
      <Thumbnail job={{ ...shown, id: job.id, thumbnail: job.thumbnail }} />
      <div class="job-main">
        {renaming ? (
          <RenameForm
            job={job}
            onDone={(renamed) => {
              setRenaming(false);
              if (renamed) onRenamed?.(renamed);
            }}
          />
        ) : (
          <div class="job-name">
            <a class="job-title" href={`#/job/${encodeURIComponent(shown.id)}`}>
              {title}
            </a>
            {onRenamed && (
              <button
                type="button"
                class="link-button"
                aria-label={`Rename ${title}`}
                onClick={() => setRenaming(true)}
              >
                Rename
              </button>
            )}
          </div>
        )}
        <div class="job-meta">
          <span>
            {kindLabel(job.kind)}
            {job.steps ? ` · ${job.steps.length} step${job.steps.length === 1 ? '' : 's'}` : stepLabel(job)}
          </span>
          {job.remoteId && <code>{job.remoteId}</code>}
          <span>{formatTime(job.createdAt)}</span>
          {shown.outputsFetched && <span class="cached">files cached</span>}
          <LocalEngineBadge origin={job.origin} />
        </div>
        {job.steps && job.steps.length > 0 && <SessionSteps steps={job.steps} />}
        {shown.error && <p class="job-error">{shown.error}</p>}
      </div>
      <div class="job-status">
        <StateBadge job={shown} />
        <Progress
          percent={shown.percent ?? (shown.state === 'succeeded' ? 100 : null)}
          label={`Progress of ${title}`}
        />
      </div>
      <div class="job-actions">
        <JobActions job={shown} />
      </div>
    </li>
  );
}
