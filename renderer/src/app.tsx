// The app shell: skip link, navigation, banners, notices, drop target, and the screens by route.
import { useEffect, useState } from 'preact/hooks';
import { getTransport } from '../bridge/index.ts';
import { connectionLabel, connectionSentence } from '../../shared/bridge/connection-text.ts';
import {
  applyServiceHealth,
  appState,
  dismissNotice,
  notices,
  patchApp,
  pushNotice,
  refreshInfo,
} from './app-state.ts';
import { offerDrop, offeredFiles, offerPaths } from './batch.ts';
import { followCredits } from './credits.ts';
import { BatchDialog } from './screens/batch-dialog.tsx';
import { Create } from './screens/create/index.tsx';
import { JobPage } from './screens/job.tsx';
import { Library } from './screens/library.tsx';
import { Queue } from './screens/queue.tsx';
import { ReviewBoard } from './screens/review-board.tsx';
import { Settings } from './screens/settings.tsx';
import { CompareScreen } from './screens/viewer/compare.tsx';
import { ViewerScreen } from './screens/viewer/viewer-screen.tsx';
import { liveStatus } from './live-status.ts';
import { useStore } from './store.ts';
import { toShownError } from './util.ts';

interface Route {
  screen: 'library' | 'create' | 'queue' | 'settings' | 'job' | 'viewer' | 'compare' | 'review';
  arg?: string;
  arg2?: string;
}

function parseRoute(hash: string): Route {
  const [, screen, arg, arg2] = hash.replace(/^#/, '').split('/');
  switch (screen) {
    case 'create':
      return { screen: 'create', ...(arg && { arg }) };
    case 'queue':
      return { screen: 'queue' };
    case 'settings':
      return { screen: 'settings' };
    case 'viewer':
      return { screen: 'viewer' };
    case 'review':
      return { screen: 'review', ...(arg && { arg: decodeURIComponent(arg) }) };
    case 'compare':
      return {
        screen: 'compare',
        ...(arg && { arg: decodeURIComponent(arg) }),
        ...(arg2 && { arg2: decodeURIComponent(arg2) }),
      };
    case 'job':
      return arg ? { screen: 'job', arg: decodeURIComponent(arg) } : { screen: 'library' };
    default:
      return { screen: 'library' };
  }
}

const NAV = [
  { screen: 'library', href: '#/library', label: 'Library' },
  { screen: 'create', href: '#/create', label: 'Create' },
  { screen: 'queue', href: '#/queue', label: 'Queue' },
  { screen: 'viewer', href: '#/viewer', label: 'Viewer' },
  { screen: 'compare', href: '#/compare', label: 'Compare' },
  { screen: 'review', href: '#/review', label: 'Review' },
  { screen: 'settings', href: '#/settings', label: 'Settings' },
] as const;

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => {
      setRoute(parseRoute(location.hash));
      // A new screen opens at its top. Focus moves to its region for keyboard and screen reader users, without
      // scrolling there (that scrolled the page down by the header's height, hiding the screen's title).
      document.getElementById('main')?.focus({ preventScroll: true });
      scrollTo(0, 0);
    };
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

function useStartup() {
  useEffect(() => {
    const transport = getTransport();
    const { api } = transport;
    api
      .call('app.info', {})
      .then((info) => {
        patchApp({ info, ...(info.credits !== undefined && { credits: info.credits }) });
        applyServiceHealth(info.service);
      })
      .catch((e: unknown) => patchApp({ infoError: toShownError(e) }));
    api
      .call('settings.get', {})
      .then((settings) => patchApp({ settings }))
      .catch(() => {});
    const offs = [
      followCredits(),
      api.on('notice', (n) => pushNotice(n.level, n.message)),
      api.on('batch.offer', offerPaths),
      api.on('service', applyServiceHealth),
      api.on('settings', (settings) => {
        patchApp({ settings });
        refreshInfo();
      }),
    ];
    let wasClosed = false;
    offs.push(
      transport.onConnection((connection) => {
        patchApp({ connection });
        if (connection === 'closed') wasClosed = true;
        if (connection === 'open' && wasClosed) {
          wasClosed = false;
          appState.update((s) => ({ ...s, resync: s.resync + 1 }));
        }
      }),
    );
    return () => {
      for (const off of offs) off();
    };
  }, []);
}

/** Files dropped anywhere in the window become a batch (except on the viewer, which opens them itself). */
function useDrop(): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) =>
      !!e.dataTransfer && [...e.dataTransfer.types].includes('Files') && parseRoute(location.hash).screen !== 'viewer';
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overHandler = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || e.dataTransfer.files.length === 0 || parseRoute(location.hash).screen === 'viewer') return;
      // A drop onto a file input is that input's business.
      if (e.target instanceof HTMLInputElement && e.target.type === 'file') return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      // The entries (which are folders, and a folder's files) can be had only during the event; the batch
      // dialog then asks for options and a confirm.
      const entries = [...e.dataTransfer.items]
        .filter((i) => i.kind === 'file')
        .map((i) => i.webkitGetAsEntry?.() ?? null);
      void offerDrop([...e.dataTransfer.files], entries);
    };
    addEventListener('dragenter', enter);
    addEventListener('dragleave', leave);
    addEventListener('dragover', overHandler);
    addEventListener('drop', drop);
    return () => {
      removeEventListener('dragenter', enter);
      removeEventListener('dragleave', leave);
      removeEventListener('dragover', overHandler);
      removeEventListener('drop', drop);
    };
  }, []);
  return over;
}

export function App() {
  useStartup();
  const route = useRoute();
  const state = useStore(appState);
  const list = useStore(notices);
  const offered = useStore(offeredFiles);
  const dragging = useDrop();
  const ready = !!state.info && (state.jobsShown || route.screen !== 'library');
  const live = liveStatus(state);
  return (
    <div id="app-root" class={`app${dragging ? ' dragging' : ''}`} data-ready={ready ? 'true' : undefined}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link to #main; the click only keeps the hash router from reading #main as a route */}
      <a class="skip-link" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ◆
          </span>{' '}
          Asset Studio
        </div>
        <nav aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.screen}>
                <a href={n.href} aria-current={route.screen === n.screen ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="status-line">
          {state.info && (
            <a
              class="origin"
              href="#/settings"
              data-testid="connection-origin"
              data-origin={state.info.connection.origin}
              title={[connectionSentence(state.info.connection), state.info.connection.note].filter(Boolean).join(' ')}
            >
              {connectionLabel(state.info.connection)}
            </a>
          )}
          {state.credits !== undefined && <span class="credits">{state.credits} credits</span>}
          <span class={`conn conn-${live.kind}`} data-testid="live" title={live.title}>
            {live.text}
            <span class="visually-hidden">: {live.title}</span>
          </span>
        </div>
      </header>
      <div class="banners">
        {state.infoError && (
          <div class="banner banner-error" role="alert">
            Asset Studio did not answer: {state.infoError.message}
          </div>
        )}
        {state.serviceDown && (
          <div class="banner banner-offline" role="status">
            <strong>Working offline.</strong> The service cannot be reached ({state.serviceDown}). Your jobs and cached
            files are shown from this computer; new jobs can be created once it is back.
          </div>
        )}
      </div>
      <section class="notices" aria-live="polite" aria-label="Notices">
        {list.map((n) => (
          <div key={n.id} class={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
            <span>{n.message}</span>
            <button type="button" class="close" aria-label="Dismiss notice" onClick={() => dismissNotice(n.id)}>
              ×
            </button>
          </div>
        ))}
      </section>
      <main id="main" tabIndex={-1}>
        {route.screen === 'library' && <Library />}
        {route.screen === 'create' && <Create form={route.arg} />}
        {route.screen === 'queue' && <Queue />}
        {route.screen === 'settings' && <Settings />}
        {route.screen === 'review' && <ReviewBoard batch={route.arg} />}
        {route.screen === 'viewer' && <ViewerScreen />}
        {route.screen === 'compare' && (
          <CompareScreen key={`${route.arg}/${route.arg2}`} a={route.arg} b={route.arg2} />
        )}
        {route.screen === 'job' && route.arg && <JobPage key={route.arg} id={route.arg} />}
      </main>
      {offered && <BatchDialog files={offered} />}
      {dragging && (
        <div class="drop-overlay" aria-hidden="true">
          <p>Drop images, FBX or zip files to start a batch</p>
        </div>
      )}
    </div>
  );
}
