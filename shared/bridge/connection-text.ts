// The words for where the active connection comes from, the same in the app's header and settings, the
// web host's start-up line and the CLI.
import { PUBLIC_SERVICE_NAME, SERVICE_PROFILE } from '../public-service.ts';
import type { ConnectionView } from './contract.ts';

const KEY_WORDS: Record<ConnectionView['keySource'], string> = {
  argument: '--api-key',
  file: '--api-key-file',
  stdin: 'standard input',
  environment: 'ASSET_STUDIO_API_KEY',
  profile: "the profile's stored key",
  'key-file': 'the key file of "asset-studio key set"',
  engine: "the engine's own key",
};

/** A short label: "Local engine", "Service · environment", "Service · profile cloud". */
export function connectionLabel(view: ConnectionView): string {
  if (view.origin === 'engine') return 'Local engine';
  if (view.origin === 'profile' && view.profile === SERVICE_PROFILE) return 'CSM service';
  if (view.origin === 'profile') return `Service · profile ${view.profile ?? ''}`.trim();
  return `Service · ${view.origin === 'flag' ? '--base-url' : 'environment'}`;
}

/** A sentence: what it is connected to, where that comes from, and where the key comes from. */
export function connectionSentence(view: ConnectionView): string {
  if (view.origin === 'engine')
    return `The embedded local engine, a procedural stand-in (no service address or API key is set by a flag, the environment or the active profile). Real results come from ${PUBLIC_SERVICE_NAME}: set its API key in Settings.`;
  if (view.origin === 'profile' && view.profile === SERVICE_PROFILE)
    return `${PUBLIC_SERVICE_NAME}'s service at ${view.address ?? '(unknown address)'} (the profile "${SERVICE_PROFILE}"); API key from ${KEY_WORDS[view.keySource]}.`;
  const from =
    view.origin === 'profile'
      ? `the saved profile "${view.profile ?? ''}"`
      : view.origin === 'flag'
        ? '--base-url'
        : 'ASSET_STUDIO_BASE_URL';
  return `The service at ${view.address ?? '(unknown address)'}, from ${from}; API key from ${KEY_WORDS[view.keySource]}.`;
}
