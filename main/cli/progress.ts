// Live progress of jobs on stderr: redrawn bars on a terminal, one line per change otherwise.
import { shownState } from '../../shared/contract/status.ts';
import type { JobRecord } from '../store/jobs.ts';
import { neutralise } from './terminal-text.ts';

export interface ProgressView {
  update(job: JobRecord): void;
  done(): void;
}

export function jobLine(job: JobRecord): string {
  const width = 20;
  const percent = job.percent ?? (job.state === 'succeeded' ? 100 : undefined);
  const bar =
    percent === undefined
      ? ' '.repeat(width + 7)
      : `[${'#'.repeat(Math.round((percent / 100) * width)).padEnd(width, '-')}] ${String(Math.round(percent)).padStart(3)}%`;
  const id = job.remoteId ?? job.operationId ?? job.id;
  // The step the service reports (its raw status), with the older flow's step it belongs to.
  const step = job.step && job.rawStatus ? `${job.step}: ${job.rawStatus}` : job.rawStatus;
  // A status this version does not know is shown by its own text (the job is still followed).
  const state = job.state === 'unknown' ? shownState({ state: job.state, raw: job.rawStatus ?? '' }) : job.state;
  // The name the library shows: the one given by `rename`, else its label (input file name or prompt).
  const shown = job.name ?? job.label;
  return `${id.padEnd(32)} ${state.padEnd(18)} ${bar}  ${step}${shown ? `  ${shown.slice(0, 40)}` : ''}`;
}

/** `write` takes text lines (neutralised where printed); `terminal` the redraws on a terminal, written as they are. */
export function progressView(
  write: (text: string) => void,
  tty: boolean,
  terminal: (text: string) => void = write,
): ProgressView {
  const order: string[] = [];
  const lines = new Map<string, string>();
  let drawn = 0;
  return {
    update(job) {
      const line = jobLine(job);
      if (lines.get(job.id) === line) return;
      if (!lines.has(job.id)) order.push(job.id);
      lines.set(job.id, line);
      if (!tty) {
        write(`${line}\n`);
        return;
      }
      // Move up over what was drawn, then draw every line again (written as it is: its names neutralised here).
      terminal(
        `${drawn > 0 ? `\x1b[${drawn}A` : ''}${order.map((id) => `\r\x1b[2K${neutralise(lines.get(id) ?? '')}\n`).join('')}`,
      );
      drawn = order.length;
    },
    done() {
      drawn = 0;
    },
  };
}
