// Settings: service profiles and their keys (write-only), webhook receiver, cache, export defaults.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { connectionSentence } from '../../../shared/bridge/connection-text.ts';
import { MOTION_DATA_CREDIT } from '../../../shared/credits.ts';
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
import { TargetProfiles } from './target-profiles-settings.tsx';
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
            <dt>Motion data</dt>
            <dd data-testid="motion-credit">
              {MOTION_DATA_CREDIT}
              <p class="hint">
                The local engine animates characters with these motion-capture clips (and procedural gestures); the
                service uses its own AI.
              </p>
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
          <TargetProfiles settings={settings} />
        </>
      )}
    </>
  );
}

/** The text fields of a profile's form: the profile's own, or empty for a new one. */
function profileTexts(profile: SettingsView['profiles'][number] | undefined) {
  return { name: profile?.name ?? '', baseUrl: profile?.baseUrl ?? '', legacyBaseUrl: profile?.legacyBaseUrl ?? '' };
}

/** A profile's two addresses (the public service's are their placeholders). */
const ADDRESSES = [
  {
    key: 'baseUrl',
    id: 'profile-base',
    label: 'Service address',
    hint: 'Empty: the embedded local engine. Changing the address of a saved profile forgets its API key: set it again for the new address.',
  },
  {
    key: 'legacyBaseUrl',
    id: 'profile-legacy',
    label: 'Legacy address',
    hint: 'For the older step-by-step endpoints.',
  },
] as const;

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
  // The public service's profile is offered first while the local engine is in use: its key is all it needs.
  const [editing, setEditing] = useState(settings.activeProfile === 'local' ? SERVICE_PROFILE : settings.activeProfile);
  const profile = settings.profiles.find((p) => p.name === editing);
  const { saving, values, setAll, field } = useSettingsForm('profile.', () => profileTexts(profile));
  const { busy, error, save } = saving;
  useEffect(() => setAll(profileTexts(profile)), [editing]);
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
            {ADDRESSES.map(({ key, id, label, hint }) => (
              <TextField
                key={key}
                id={id}
                label={label}
                type="url"
                {...field(key)}
                placeholder={PUBLIC_SERVICE[key]}
                hint={hint}
              />
            ))}
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
  const initial = { enabled: w.enabled, host: w.host, port: String(w.port), path: w.path, secret: '' };
  const { saving, values, set, field } = useSettingsForm('webhooks.', initial);
  const input = () => {
    const { enabled, host, port, path, secret } = values;
    set('secret', ''); // never kept in the page longer than the send
    return {
      webhooks: { enabled, host: host.trim(), port: Number(port), path: path.trim(), ...(secret && { secret }) },
    };
  };
  return (
    <Section title="Webhook receiver" id="webhooks">
      <SettingsForm saving={saving} label="Save webhooks" input={input}>
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
      </SettingsForm>
    </Section>
  );
}

function Cache({ settings }: { settings: SettingsView }) {
  const c = settings.cache;
  const { saving, values, set, field } = useSettingsForm('cache.', {
    maxMb: String(Math.round(c.maxBytes / 2 ** 20)),
    dir: c.dir,
  });
  const { maxMb, dir } = values;
  const [formats, setFormats] = useState<string[]>(settings.outputFormats);
  const electron = getTransport().kind === 'electron';
  return (
    <Section title="Download cache" id="cache">
      <p>
        Using <strong>{formatBytes(c.usedBytes)}</strong> of {formatBytes(c.maxBytes)}.
      </p>
      <meter min={0} max={c.maxBytes} value={c.usedBytes} aria-label="Cache use" />
      <SettingsForm
        saving={saving}
        label="Save cache settings"
        input={() => ({
          cache: { maxBytes: Math.round(Number(maxMb) * 2 ** 20), ...(dir.trim() !== c.dir && { dir: dir.trim() }) },
          outputFormats: formats,
        })}
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
      </SettingsForm>
    </Section>
  );
}

function ExportDefaults({ settings }: { settings: SettingsView }) {
  const { saving, values, field } = useSettingsForm('export.', {
    engine: settings.export.engine ?? '',
    projectDir: settings.export.projectDir ?? '',
  });
  const { engine, projectDir } = values;
  const input = () => ({
    export: {
      ...(engine && { engine: engine as ExportTarget }),
      ...(projectDir.trim() && { projectDir: projectDir.trim() }),
    },
  });
  return (
    <Section title="Default export preset" id="export">
      <SettingsForm saving={saving} label="Save export preset" input={input}>
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
      </SettingsForm>
    </Section>
  );
}

/** A settings form's values, its fields bound to them and to the messages of `<prefix><key>`, and its save. */
function useSettingsForm<V extends object>(prefix: string, initial: V | (() => V)) {
  const saving = useSave();
  const [values, set, setAll] = useValues(initial);
  return { saving, values, set, setAll, field: bindFields(saving.checks, values, set, prefix) };
}

/**
 * A settings form: its fields, then its save button, "Saved." once done and the error in plain words.
 * Submitting saves what `input` makes of the fields.
 */
function SettingsForm(props: {
  saving: ReturnType<typeof useSave>;
  label: string;
  input: () => CommandInput<'settings.update'>;
  children: ComponentChildren;
}) {
  const { busy, saved, error, save } = props.saving;
  return (
    <form
      class="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(props.input());
      }}
    >
      {props.children}
      <div class="form-footer">
        <button type="submit" class="primary" disabled={busy}>
          {props.label}
        </button>
        {saved && <span role="status">Saved.</span>}
        <ErrorBox error={error} />
      </div>
    </form>
  );
}
