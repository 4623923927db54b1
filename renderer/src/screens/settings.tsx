// Settings: service profiles and their keys (write-only), webhook receiver, cache, export defaults.
import { useEffect, useState } from 'preact/hooks';
import { connectionSentence } from '../../../shared/bridge/connection-text.ts';
import type { CommandInput, ConnectionView, SettingsView } from '../../../shared/bridge/contract.ts';
import { EXPORT_TARGET_LABELS, EXPORT_TARGETS, type ExportTarget } from '../../../shared/export-options.ts';
import { MIN_CACHE_BYTES } from '../../../shared/setting-fields.ts';
import { OUTPUT_FORMATS } from '../../../shared/output-kind.ts';
import {
  PUBLIC_SERVICE,
  PUBLIC_SERVICE_DOCS,
  PUBLIC_SERVICE_KEYS_PAGE,
  PUBLIC_SERVICE_NAME,
  PUBLIC_SERVICE_PRICES_PAGE,
  SERVICE_PROFILE,
} from '../../../shared/public-service.ts';
import { getBridge, getTransport } from '../../bridge/index.ts';
import { appState, patchApp, refreshInfo } from '../app-state.ts';
import { ErrorBox, Section, TableHead } from '../components/ui.tsx';
import { useStore } from '../store.ts';
import { formatBytes, issuesByField, toShownError, type ShownError } from '../util.ts';
import { useAction } from '../use-action.ts';
import { bindFields, type FieldChecks, useValues } from './create/fields.ts';
import { CheckboxField, SelectField, TextField } from './create/inputs.tsx';

const STORAGE_LABELS: Record<SettingsView['profiles'][number]['key']['storage'], string> = {
  'os-keychain': 'stored in the system keychain',
  'session-only': 'kept until the app closes',
  file: 'stored in a private file',
  environment: 'from the environment',
  none: 'not stored',
};

/**
 * Runs a settings change, showing its error (with field issues: `checks`, by their path as `cache.maxBytes`)
 * and updating the shared settings. A field changed after a failed save takes the error away.
 */
function useSave() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  const [saved, setSaved] = useState(false);
  const save = async (input: CommandInput<'settings.update'>) => {
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      const settings = await getBridge().call('settings.update', input);
      patchApp({ settings });
      refreshInfo();
      setSaved(true);
      return true;
    } catch (e) {
      setError(toShownError(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const fieldErrors = issuesByField(error?.issues);
  const checks: FieldChecks = {
    errors: (field) => fieldErrors[field],
    touch: () => error && setError(undefined),
  };
  return { busy, error, saved, save, checks };
}

export function Settings() {
  const { settings, info, credits } = useStore(appState);
  const [loadError, setLoadError] = useState<ShownError | undefined>();
  useEffect(() => {
    getBridge()
      .call('settings.get', {})
      .then((s) => patchApp({ settings: s }))
      .catch((e: unknown) => setLoadError(toShownError(e)));
  }, []);
  return (
    <>
      <h1>Settings</h1>
      <ErrorBox error={loadError} title="The settings could not be read." />
      {info && (
        <Section title="Account and app" id="account">
          <dl class="facts">
            <dt>Connected to</dt>
            <dd data-testid="connection-sentence">
              {connectionSentence(info.connection)}
              {info.connection.note && <p class="hint">{info.connection.note}</p>}
            </dd>
            <dt>Credits</dt>
            <dd data-testid="credits">{credits ?? info.credits ?? 'not reported by the service'}</dd>
            <dt>Version</dt>
            <dd>{info.version}</dd>
            <dt>Data folder</dt>
            <dd>
              <code>{info.dataDir}</code>
            </dd>
          </dl>
        </Section>
      )}
      {settings && (
        <>
          <Profiles settings={settings} connection={info?.connection} />
          <Webhooks settings={settings} />
          <Cache settings={settings} />
          <ExportDefaults settings={settings} />
        </>
      )}
    </>
  );
}

/** The text fields of a profile's form: the profile's own, or empty for a new one. */
function profileTexts(profile: SettingsView['profiles'][number] | undefined) {
  return { name: profile?.name ?? '', baseUrl: profile?.baseUrl ?? '', legacyBaseUrl: profile?.legacyBaseUrl ?? '' };
}

/** The profiles that always exist: their addresses are fixed (only the public service's key is asked for). */
const BUILT_IN = ['local', SERVICE_PROFILE];

/** What the public service is, where its keys are made and what it costs: the way to real results. */
function PublicService() {
  const link = (href: string, text: string) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
  return (
    <div class="public-service" data-testid="public-service">
      <p>
        Asset Studio is a client for <strong>{PUBLIC_SERVICE_NAME}</strong>, a paid generative 3D service: image to 3D,
        text to image, mesh animation and retopology. Without its API key everything runs on the embedded local engine,
        a procedural stand-in that shows how each workflow goes, not the service's results.
      </p>
      <ol>
        <li>
          Make an API key on your profile page at {link(PUBLIC_SERVICE_KEYS_PAGE, '3d.csm.ai')} (sign in or create an
          account first).
        </li>
        <li>
          Paste it below, in the profile “{SERVICE_PROFILE}”, which already has the service's addresses (
          <code>{PUBLIC_SERVICE.baseUrl}</code>, older endpoints <code>{PUBLIC_SERVICE.legacyBaseUrl}</code>).
        </li>
      </ol>
      <p class="hint">
        Every generation spends credits of your account: see the {link(PUBLIC_SERVICE_PRICES_PAGE, 'price list')} (each
        create form shows its cost and your balance before you submit) and the{' '}
        {link(PUBLIC_SERVICE_DOCS, "service's documentation")}. A service at another address (a proxy, an enterprise
        address) gets a profile of its own: New profile.
      </p>
    </div>
  );
}

function Profiles({ settings, connection }: { settings: SettingsView; connection: ConnectionView | undefined }) {
  const { busy, error, save, checks } = useSave();
  // The public service's profile is offered first while the local engine is in use: its key is all it needs.
  const [editing, setEditing] = useState(settings.activeProfile === 'local' ? SERVICE_PROFILE : settings.activeProfile);
  const profile = settings.profiles.find((p) => p.name === editing);
  const [values, set, setAll] = useValues(() => profileTexts(profile));
  useEffect(() => setAll(profileTexts(settings.profiles.find((x) => x.name === editing))), [editing]);
  const field = bindFields(checks, values, set, 'profile.');
  const name = values.name.trim();
  return (
    <Section title="Service profiles" id="profiles">
      <PublicService />
      {(connection?.origin === 'flag' || connection?.origin === 'environment') && (
        <p class="hint" role="note" data-testid="profiles-overridden">
          Asset Studio was started with {connection.origin === 'flag' ? '--base-url' : 'ASSET_STUDIO_BASE_URL'}, which
          comes before the profiles: the active profile is used once it is unset.
        </p>
      )}
      <table class="profiles">
        <TableHead
          columns={['Active', 'Profile', 'Addresses', 'API key', <span class="visually-hidden">Actions</span>]}
        />
        <tbody>
          {settings.profiles.map((p) => (
            <tr key={p.name} data-profile={p.name}>
              <td>
                <input
                  type="radio"
                  name="active-profile"
                  aria-label={`Use ${p.name}`}
                  checked={settings.activeProfile === p.name}
                  disabled={busy}
                  onChange={() => void save({ activeProfile: p.name })}
                />
              </td>
              <td>
                {p.name}
                {p.name === SERVICE_PROFILE && <span class="muted"> · {PUBLIC_SERVICE_NAME}</span>}
              </td>
              <td>
                {p.baseUrl ? (
                  <>
                    <code>{p.baseUrl}</code>
                    {p.legacyBaseUrl && (
                      <>
                        <br />
                        legacy <code>{p.legacyBaseUrl}</code>
                      </>
                    )}
                  </>
                ) : (
                  'Embedded local engine'
                )}
              </td>
              <td class="key-status">
                {p.key.configured ? `Configured (${STORAGE_LABELS[p.key.storage]})` : 'Not set'}
              </td>
              <td>
                <button type="button" onClick={() => setEditing(p.name)} aria-pressed={editing === p.name}>
                  {p.name === SERVICE_PROFILE ? 'Key' : 'Edit'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => setEditing('')}>
        New profile
      </button>
      {BUILT_IN.includes(editing) ? (
        <p class="hint" data-testid="built-in-profile">
          {editing === SERVICE_PROFILE
            ? `The profile “${SERVICE_PROFILE}” is ${PUBLIC_SERVICE_NAME}'s service at its documented addresses: only its API key is needed.`
            : 'The profile “local” is the embedded local engine on this computer: it needs no address and no key.'}
        </p>
      ) : (
        <form
          class="settings-form"
          aria-label={editing ? `Profile ${editing}` : 'New profile'}
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const baseUrl = values.baseUrl.trim();
            const legacyBaseUrl = values.legacyBaseUrl.trim();
            const ok = await save({
              profile: { name, ...(baseUrl && { baseUrl }), ...(legacyBaseUrl && { legacyBaseUrl }) },
            });
            if (ok) setEditing(name);
          }}
        >
          <h3>{editing ? `Profile “${editing}”` : 'New profile'}</h3>
          <div class="grid-3">
            <TextField id="profile-name" label="Name" {...field('name')} />
            <TextField
              id="profile-base"
              label="Service address"
              type="url"
              {...field('baseUrl')}
              placeholder={PUBLIC_SERVICE.baseUrl}
              hint="Empty: the embedded local engine. Changing the address of a saved profile forgets its API key: set it again for the new address."
            />
            <TextField
              id="profile-legacy"
              label="Legacy address"
              type="url"
              {...field('legacyBaseUrl')}
              placeholder={PUBLIC_SERVICE.legacyBaseUrl}
              hint="For the older step-by-step endpoints."
            />
          </div>
          <div class="form-footer">
            <button type="submit" class="primary" disabled={busy || name === ''}>
              Save profile
            </button>
            <ErrorBox error={error} />
          </div>
        </form>
      )}
      {profile?.baseUrl && (
        <KeyForm
          profileName={profile.name}
          configured={profile.key.configured}
          storage={STORAGE_LABELS[profile.key.storage]}
          switchTo={settings.activeProfile === 'local' && profile.name === SERVICE_PROFILE}
        />
      )}
    </Section>
  );
}

/** The key goes one way: typed, sent, and the field cleared; only "configured" ever comes back. */
function KeyForm({
  profileName,
  configured,
  storage,
  switchTo,
}: {
  profileName: string;
  configured: boolean;
  storage: string;
  /** Saving the key also makes this profile the one in use (the public service's, while the local engine is). */
  switchTo: boolean;
}) {
  const [key, setKey] = useState('');
  // The web host has no keychain: there a key lives until the app closes.
  const [sessionOnly, setSessionOnly] = useState(getTransport().kind === 'web');
  const { busy, error, run } = useAction();
  const [status, setStatus] = useState('');
  const refresh = () =>
    getBridge()
      .call('settings.get', {})
      .then((s) => patchApp({ settings: s }))
      .catch(() => {});
  return (
    <form
      class="settings-form key-form"
      aria-label={`API key of ${profileName}`}
      autoComplete="off"
      onSubmit={async (e) => {
        e.preventDefault();
        const value = key;
        setKey(''); // never kept in the page longer than the send
        (e.currentTarget.elements.namedItem('api-key') as HTMLInputElement | null)?.setAttribute('value', '');
        setStatus('');
        await run(
          async () => {
            await getBridge().call('key.set', { profile: profileName, key: value, sessionOnly });
            if (switchTo) await getBridge().call('settings.update', { activeProfile: profileName });
            setStatus(switchTo ? `Key saved; the profile “${profileName}” is in use.` : 'Key saved.');
            await refresh();
            refreshInfo();
          },
          (err) => ({ message: toShownError(err).message }),
        );
      }}
    >
      <h3>API key</h3>
      <p class="key-status" role="status">
        {configured
          ? `A key is configured (${storage}). It is never shown again; type a new one to replace it.`
          : 'No key is set for this profile.'}{' '}
        {status}
      </p>
      <TextField
        id="api-key"
        label={configured ? 'Replace the key' : 'API key'}
        type="password"
        value={key}
        onChange={setKey}
        hint="Only sent to the app's main process; never displayed, logged or sent back."
      />
      <CheckboxField
        id="key-session-only"
        label="Only until the app closes (do not store it)"
        value={sessionOnly}
        onChange={setSessionOnly}
      />
      <div class="form-footer">
        <button type="submit" class="primary" disabled={busy || key.length === 0}>
          {configured ? 'Replace key' : switchTo ? 'Save key and use this profile' : 'Save key'}
        </button>
        {configured && (
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await getBridge().call('key.remove', { profile: profileName });
                setStatus('Key removed.');
                await refresh();
              })
            }
          >
            Remove key
          </button>
        )}
        <ErrorBox error={error} />
      </div>
    </form>
  );
}

function Webhooks({ settings }: { settings: SettingsView }) {
  const w = settings.webhooks;
  const { busy, error, saved, save, checks } = useSave();
  const [values, set] = useValues({ enabled: w.enabled, host: w.host, port: String(w.port), path: w.path, secret: '' });
  const field = bindFields(checks, values, set, 'webhooks.');
  return (
    <Section title="Webhook receiver" id="webhooks">
      <form
        class="settings-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const { enabled, host, port, path, secret } = values;
          set('secret', '');
          await save({
            webhooks: {
              enabled,
              host: host.trim(),
              port: Number(port),
              path: path.trim(),
              ...(secret && { secret }),
            },
          });
        }}
      >
        <p class="hint">
          The service can notify the app when a session changes; the app then reads the session at once instead of
          waiting for its next poll. Polling stays on as a safety net.
        </p>
        <CheckboxField id="wh-enabled" label="Receive webhooks" {...field('enabled')} />
        <div class="grid-3">
          <TextField id="wh-host" label="Listen on host" {...field('host')} />
          <TextField id="wh-port" label="Port" type="number" {...field('port')} />
          <TextField id="wh-path" label="Path" {...field('path')} hint="Starts with /" />
        </div>
        <TextField
          id="wh-secret"
          label={w.secretSet ? 'Signing secret (set; type to replace)' : 'Signing secret (optional)'}
          type="password"
          {...field('secret')}
          hint="Standard Webhooks secret (whsec_…). Without one, notifications are not verified."
        />
        <SaveFooter label="Save webhooks" busy={busy} saved={saved} error={error} />
      </form>
    </Section>
  );
}

function Cache({ settings }: { settings: SettingsView }) {
  const c = settings.cache;
  const { busy, error, saved, save, checks } = useSave();
  const [values, set] = useValues({ maxMb: String(Math.round(c.maxBytes / 2 ** 20)), dir: c.dir });
  const { maxMb, dir } = values;
  const field = bindFields(checks, values, set, 'cache.');
  const [formats, setFormats] = useState<string[]>(settings.outputFormats);
  const electron = getTransport().kind === 'electron';
  return (
    <Section title="Download cache" id="cache">
      <p>
        Using <strong>{formatBytes(c.usedBytes)}</strong> of {formatBytes(c.maxBytes)}.
      </p>
      <meter min={0} max={c.maxBytes} value={c.usedBytes} aria-label="Cache use" />
      <form
        class="settings-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save({
            cache: { maxBytes: Math.round(Number(maxMb) * 2 ** 20), ...(dir.trim() !== c.dir && { dir: dir.trim() }) },
            outputFormats: formats,
          });
        }}
      >
        <div class="grid-2">
          <TextField
            id="cache-max"
            label="Largest size (MB)"
            type="number"
            {...field('maxMb', 'cache.maxBytes')}
            hint={`At least ${MIN_CACHE_BYTES / 2 ** 20} MB. The least recently used files go first.`}
          />
          <div>
            <TextField id="cache-dir" label="Location" {...field('dir')} />
            {electron && (
              <button
                type="button"
                onClick={async () => {
                  const r = await getBridge()
                    .call('dialog.chooseFolder', { title: 'Cache folder' })
                    .catch(() => undefined);
                  if (r?.path) set('dir', r.path);
                }}
              >
                Browse…
              </button>
            )}
          </div>
        </div>
        <fieldset class="formats">
          <legend>Files downloaded for each finished job</legend>
          {OUTPUT_FORMATS.map((f) => (
            <label key={f}>
              <input
                type="checkbox"
                checked={f === 'glb' || formats.includes(f)}
                disabled={f === 'glb'}
                onChange={(e) =>
                  setFormats((list) => (e.currentTarget.checked ? [...list, f] : list.filter((x) => x !== f)))
                }
              />{' '}
              {f}
              {f === 'glb' ? ' (always)' : ''}
            </label>
          ))}
        </fieldset>
        <SaveFooter label="Save cache settings" busy={busy} saved={saved} error={error} />
      </form>
    </Section>
  );
}

function ExportDefaults({ settings }: { settings: SettingsView }) {
  const { busy, error, saved, save, checks } = useSave();
  const [values, set] = useValues({
    engine: settings.export.engine ?? '',
    projectDir: settings.export.projectDir ?? '',
  });
  const { engine, projectDir } = values;
  const field = bindFields(checks, values, set, 'export.');
  return (
    <Section title="Default export preset" id="export">
      <form
        class="settings-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save({
            export: {
              ...(engine && { engine: engine as ExportTarget }),
              ...(projectDir.trim() && { projectDir: projectDir.trim() }),
            },
          });
        }}
      >
        <div class="grid-2">
          <SelectField
            id="export-engine"
            label="Game engine"
            options={['', ...EXPORT_TARGETS]}
            labels={{ '': 'Detect from the project folder', ...EXPORT_TARGET_LABELS }}
            {...field('engine')}
          />
          <TextField id="export-dir" label="Project folder" {...field('projectDir')} />
        </div>
        <SaveFooter label="Save export preset" busy={busy} saved={saved} error={error} />
      </form>
    </Section>
  );
}

/** The end of a settings form: its save button, "Saved." once done, and the error in plain words. */
function SaveFooter(props: { label: string; busy: boolean; saved: boolean; error: ShownError | undefined }) {
  return (
    <div class="form-footer">
      <button type="submit" class="primary" disabled={props.busy}>
        {props.label}
      </button>
      {props.saved && <span role="status">Saved.</span>}
      <ErrorBox error={props.error} />
    </div>
  );
}
