// Settings › Target profiles (#31): the profile chosen by default (the export panel's, the check's, the review
// board's; "none" exports as today), and each built-in profile's budget, texture size, LOD ratios and texel
// density, edited and saved as `targetProfiles.edits`, or reset to the built-in values.
import { useEffect, useState } from 'preact/hooks';
import type { SettingsView } from '../../../shared/bridge/contract.ts';
import { TEXTURE_SIZES, type ProfileEdit } from '../../../shared/target-profiles.ts';
import { getBridge } from '../../bridge/index.ts';
import { patchApp } from '../app-state.ts';
import { Select } from '../components/choices.tsx';
import { ErrorBox, Options, Section } from '../components/ui.tsx';
import { NO_PROFILE, PROFILE_CHOICES, PROFILE_LABELS, profileWithEdits } from '../profiles.ts';
import { toShownError, type ShownError } from '../util.ts';

interface Form {
  triangleBudget: string;
  maxTextureSize: string;
  lodRatios: string;
  texelDensity: string;
}

function formOf(settings: SettingsView, name: string): Form {
  const p = profileWithEdits(settings, name)!;
  return {
    triangleBudget: String(p.triangleBudget),
    maxTextureSize: String(p.maxTextureSize),
    lodRatios: p.lods.map((l) => l.ratio).join(', '),
    texelDensity: String(p.texelDensity),
  };
}

export function TargetProfiles({ settings }: { settings: SettingsView }) {
  const saved = settings.targetProfiles;
  const [editing, setEditing] = useState(PROFILE_CHOICES[0]!);
  const [form, setForm] = useState<Form>(() => formOf(settings, editing));
  const [error, setError] = useState<ShownError | undefined>();
  const [said, setSaid] = useState('');
  useEffect(() => setForm(formOf(settings, editing)), [editing, settings]);

  const save = async (targetProfiles: SettingsView['targetProfiles'], done: string) => {
    setError(undefined);
    setSaid('');
    try {
      patchApp({ settings: await getBridge().call('settings.update', { targetProfiles }) });
      setSaid(done);
    } catch (e) {
      setError(toShownError(e));
    }
  };
  const editOf = (): ProfileEdit => {
    const base = profileWithEdits({ ...settings, targetProfiles: { edits: {} } }, editing)!;
    const ratios = form.lodRatios
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean)
      .map(Number);
    // Each level keeps its built-in screen size (or shows at half the one before when the list grew).
    const lods = ratios.map((ratio, i) => ({
      ratio,
      screenSize: base.lods[i]?.screenSize ?? (base.lods[i - 1]?.screenSize ?? base.lod0ScreenSize) / 2 ** (i + 1),
    }));
    return {
      triangleBudget: Number(form.triangleBudget),
      maxTextureSize: Number(form.maxTextureSize),
      lods,
      texelDensity: Number(form.texelDensity),
    };
  };
  const set = (key: keyof Form) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [key]: e.currentTarget.value });
  const { [editing]: _, ...otherEdits } = saved.edits;
  return (
    <Section title="Target profiles" id="target-profiles">
      <p class="hint">
        A profile is what an asset must be for one engine on one kind of platform. The export applies the chosen
        profile's budget, texture size and LODs; the check says what does not fit.
      </p>
      <div class="field">
        <label for="profile-default">Default profile</label>
        <Select
          id="profile-default"
          value={saved.defaultProfile ?? NO_PROFILE}
          onChange={(v) => void save({ ...saved, defaultProfile: v }, 'Default profile saved.')}
        >
          <option value={NO_PROFILE}>None: exports write the model as it is</option>
          <Options values={PROFILE_CHOICES} labels={PROFILE_LABELS} />
        </Select>
      </div>
      <form
        class="settings-form profile-edit"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save({ ...saved, edits: { ...saved.edits, [editing]: editOf() } }, `${PROFILE_LABELS[editing]} saved.`);
        }}
      >
        <div class="field">
          <label for="profile-editing">Profile to edit</label>
          <Select id="profile-editing" value={editing} onChange={setEditing}>
            <Options values={PROFILE_CHOICES} labels={PROFILE_LABELS} />
          </Select>
          {saved.edits[editing] && <p class="hint">Edited: differs from the built-in values.</p>}
        </div>
        <div class="grid-2">
          <div class="field">
            <label for="profile-budget">Triangle budget (LOD0)</label>
            <input
              id="profile-budget"
              type="number"
              min="100"
              value={form.triangleBudget}
              onInput={set('triangleBudget')}
            />
          </div>
          <div class="field">
            <label for="profile-texture">Largest texture (px)</label>
            <select id="profile-texture" value={form.maxTextureSize} onChange={set('maxTextureSize')}>
              {TEXTURE_SIZES.map((s) => (
                <option key={s} value={String(s)}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="profile-lods">LOD ratios (share of LOD0's triangles)</label>
            <input
              id="profile-lods"
              type="text"
              value={form.lodRatios}
              placeholder="0.5, 0.25"
              onInput={set('lodRatios')}
            />
          </div>
          <div class="field">
            <label for="profile-density">Texel density (px/m)</label>
            <input
              id="profile-density"
              type="number"
              min="16"
              value={form.texelDensity}
              onInput={set('texelDensity')}
            />
          </div>
        </div>
        <div class="form-footer">
          <button type="submit" class="primary">
            Save profile
          </button>
          <button
            type="button"
            disabled={!saved.edits[editing]}
            onClick={() => void save({ ...saved, edits: otherEdits }, `${PROFILE_LABELS[editing]} reset.`)}
          >
            Reset to built-in
          </button>
          {said && <span role="status">{said}</span>}
          <ErrorBox error={error} />
        </div>
      </form>
    </Section>
  );
}
