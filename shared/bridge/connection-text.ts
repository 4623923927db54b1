// The words for where the active connection comes from, the same in the app's header and settings, the
// web host's start-up line and the CLI.
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
  if (view.origin === 'profile') return `Service · profile ${view.profile ?? ''}`.trim();
  return `Service · ${view.origin === 'flag' ? '--base-url' : 'environment'}`;
}

/** A sentence: what it is connected to, where that comes from, and where the key comes from. */
export function connectionSentence(view: ConnectionView): string {
  if (view.origin === 'engine')
    return 'The embedded local engine (no service address is set by a flag, the environment or the active profile).';
  const from =
    view.origin === 'profile'
      ? `the saved profile "${view.profile ?? ''}"`
      : view.origin === 'flag'
        ? '--base-url'
        : 'ASSET_STUDIO_BASE_URL';
  return `The service at ${view.address ?? '(unknown address)'}, from ${from}; API key from ${KEY_WORDS[view.keySource]}.`;
}
