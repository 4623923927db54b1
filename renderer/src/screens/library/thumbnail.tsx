// A job's picture in the library: the one jobs.list found in the cache, else (a finished job) one main
// renders from its cached model and keeps (jobs.thumbnail), asked again as its files reach the cache
// (`cache.output`). Until there is one, a plain placeholder says why in its title: never letters.
import { useEffect, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { getBridge } from '../../../bridge/index.ts';

type Answer = { url: string | null; reason: string | null };
/** Answers by job id and what was known when asked (a render is made once; a job that had none is asked again when its files change). */
const asked = new Map<string, { key: string; answer: Promise<Answer> }>();

function askThumbnail(job: JobView, key: string): Promise<Answer> {
  const known = asked.get(job.id);
  if (known && known.key === key) return known.answer;
  const answer = getBridge()
    .call('jobs.thumbnail', { id: job.id })
    .catch((e: unknown) => ({ url: null, reason: e instanceof Error ? e.message : String(e) }));
  asked.set(job.id, { key, answer });
  return answer;
}

export function Thumbnail({ job, size = 72 }: { job: JobView; size?: number }) {
  const [made, setMade] = useState<Answer | undefined>();
  /** Outputs of the session that reached the cache since (each may be the model to render). */
  const [arrived, setArrived] = useState(0);
  const want = !job.thumbnail && job.state === 'succeeded';
  const have = !!made?.url;
  // The list names the picture: what was asked before is forgotten, so if the list drops it again (a
  // better model joined the session, its render is out of date) a new one is asked for.
  useEffect(() => {
    if (!job.thumbnail) return;
    asked.delete(job.id);
    setMade(undefined);
  }, [job.thumbnail]);
  useEffect(() => {
    if (!want || have || !job.remoteId) return;
    return getBridge().on('cache.output', (o) => {
      if (o.sessionId === job.remoteId && o.state === 'complete') setArrived((n) => n + 1);
    });
  }, [want, have, job.remoteId]);
  useEffect(() => {
    if (!want || have) return;
    let current = true;
    void askThumbnail(job, `${job.state}:${job.outputsFetched}:${arrived}`).then((a) => current && setMade(a));
    return () => {
      current = false;
    };
  }, [job.id, want, job.outputsFetched, arrived]);
  const url = job.thumbnail ?? (want ? made?.url : null) ?? null;
  const why = url
    ? undefined
    : job.state === 'succeeded'
      ? (made?.reason ?? 'Making a picture…')
      : job.final
        ? 'No picture: it did not finish.'
        : 'A picture is made when it has finished.';
  return (
    <div class={`thumb${url ? '' : ' thumb-empty'}`} title={why} data-thumbnail={url ? 'image' : 'none'}>
      {url ? (
        <img src={url} alt="" loading="lazy" decoding="async" width={size} height={size} />
      ) : (
        <span class="visually-hidden">{why}</span>
      )}
    </div>
  );
}
