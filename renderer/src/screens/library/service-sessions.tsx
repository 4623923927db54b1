// The service's own list of image-to-3D sessions (also those made outside this app), with paging.
import { useEffect, useState } from 'preact/hooks';
import type { CommandOutput } from '../../../../shared/bridge/contract.ts';
import { normaliseStatus } from '../../../../shared/kinds/index.ts';
import { getBridge } from '../../../bridge/index.ts';
import { isServiceUnreachable, patchApp } from '../../app-state.ts';
import { ErrorBox, Section, StateBadge, TableHead } from '../../components/ui.tsx';
import { formatTime, toShownError, type ShownError } from '../../util.ts';
import { Pager } from './pager.tsx';

type SessionsList = CommandOutput<'sessions.list'>;

export function ServiceSessions() {
  const bridge = getBridge();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<SessionsList | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const [loading, setLoading] = useState(false);
  const load = () => {
    setLoading(true);
    bridge
      .call('sessions.list', { page, limit: 10 })
      .then((r) => {
        setData(r);
        setError(undefined);
        patchApp({ serviceDown: undefined, ...(r.credits !== undefined && { credits: r.credits }) });
      })
      .catch((e: unknown) => {
        const shown = toShownError(e);
        setError(shown);
        // Unreachable service: a banner says so and the app goes on from its cache; no error here.
        if (isServiceUnreachable(shown)) patchApp({ serviceDown: shown.message });
      })
      .finally(() => setLoading(false));
  };
  useEffect(load, [page]);
  const unreachable = error && isServiceUnreachable(error);
  return (
    <Section
      title="Sessions at the service"
      id="sessions"
      actions={
        <button type="button" onClick={load} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      }
    >
      <p class="hint">
        Image-to-3D sessions as the service lists them (also those made outside this app), newest first.
      </p>
      {unreachable ? (
        <p class="muted">Not available while the service cannot be reached.</p>
      ) : (
        <ErrorBox error={error} title="The service's list could not be read." />
      )}
      {data && !unreachable && (
        <>
          <p class="count">
            {data.totalResults} session{data.totalResults === 1 ? '' : 's'}
            {data.credits !== undefined && ` · ${data.credits} credits left`}
          </p>
          <table class="sessions">
            <caption class="visually-hidden">Sessions at the service, page {data.page}</caption>
            <TableHead columns={['Session', 'Status', 'Model', 'Created']} />
            <tbody>
              {data.results.map((s) => {
                const raw = String(s.status ?? '');
                const status = normaliseStatus('image_to_3d', raw);
                return (
                  <tr key={String(s.session_code)}>
                    <td>
                      <code>{String(s.session_code ?? '')}</code>
                    </td>
                    <td>
                      <StateBadge job={{ state: status.state, rawStatus: raw }} />
                    </td>
                    <td>{String(s.model_version ?? '') || '–'}</td>
                    <td>{formatTime(String(s.created_at ?? ''))}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {data.totalPages > 1 && <Pager page={page} pages={data.totalPages} onPage={setPage} label="Session pages" />}
        </>
      )}
    </Section>
  );
}
