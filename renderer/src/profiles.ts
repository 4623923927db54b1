// The target profiles as the UI offers them (shared/target-profiles.ts, their one home): the saved default and
// edits from Settings, the profile a screen starts with, and each profile's label.
import type { SettingsView } from '../../shared/bridge/contract.ts';
import { FALLBACK_PROFILE, NO_PROFILE } from '../../shared/setting-fields.ts';
import { BUILT_IN_PROFILES, resolveProfile, type TargetProfile } from '../../shared/target-profiles.ts';

export { NO_PROFILE };

/** Every built-in profile by name, with its label: `Unity — mobile`. */
export const PROFILE_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  BUILT_IN_PROFILES.map((p) => [p.name, p.label]),
);
export const PROFILE_CHOICES: readonly string[] = BUILT_IN_PROFILES.map((p) => p.name);

/** The export's profile at first: the one saved in Settings, else none (an export writes the asset as it came). */
export function exportProfileOf(settings: SettingsView | undefined): string {
  return settings?.targetProfiles.defaultProfile ?? NO_PROFILE;
}

/** The profile a check starts with: the one saved in Settings (not `none`: a check needs one), else unity-desktop. */
export function checkProfileOf(settings: SettingsView | undefined): string {
  const saved = settings?.targetProfiles.defaultProfile;
  return saved && saved !== NO_PROFILE ? saved : FALLBACK_PROFILE;
}

/** The profile with the user's edits (undefined for `none`, an unknown name, or edits that no longer fit). */
export function profileWithEdits(settings: SettingsView | undefined, name: string): TargetProfile | undefined {
  try {
    return resolveProfile(name, settings?.targetProfiles.edits ?? {});
  } catch {
    return resolveProfile(name);
  }
}
