// Issue #33: updating only a profile's older variants' address wiped its address (and key), and the app then used
// the embedded engine without a word. A change keeps what it does not give; a profile with no address is said.
import { describe, expect, it } from 'vitest';
import { resolveConnection, savedProfile } from '../../main/app/connection.ts';
import { ProfileStore, SessionKeyVault } from '../../main/config/profiles.ts';
import { openDatabase } from '../../main/store/database.ts';
import { tempDir } from '../helpers.ts';

const KEY = 'sk_profile_key_0123456789';

function store() {
  const db = openDatabase(':memory:');
  return { db, profiles: new ProfileStore(db.settings, { session: new SessionKeyVault() }) };
}

describe('ProfileStore.save', () => {
  it('keeps the address of a profile when only its older variants’ address is given', () => {
    const { db, profiles } = store();
    profiles.save({ name: 'studio', baseUrl: 'https://api.studio.example' });
    profiles.setKey('studio', KEY, true);
    profiles.activate('studio');
    profiles.save({ name: 'studio', legacyBaseUrl: 'https://legacy.studio.example' });
    expect(profiles.get('studio')).toEqual({
      name: 'studio',
      baseUrl: 'https://api.studio.example',
      legacyBaseUrl: 'https://legacy.studio.example',
    });
    // The key was set for the addresses before: it is not sent to a new one (set it again), and that is said.
    expect(profiles.key('studio')).toBeUndefined();
    expect(() => resolveConnection({ dataDir: tempDir(), saved: savedProfile(profiles) })).toThrow(
      /The active profile "studio" \(https:\/\/api\.studio\.example\) has no API key here/,
    );
    db.close();
  });

  it('keeps the key when a change gives the same addresses', () => {
    const { db, profiles } = store();
    profiles.save({ name: 'studio', baseUrl: 'https://api.studio.example', legacyBaseUrl: 'https://legacy.example' });
    profiles.setKey('studio', KEY, true);
    profiles.save({ name: 'studio', legacyBaseUrl: 'https://legacy.example' });
    profiles.save({ name: 'studio' });
    expect(profiles.get('studio').baseUrl).toBe('https://api.studio.example');
    expect(profiles.key('studio')).toBe(KEY);
    // The settings form sends the profile whole: an older variants' address it leaves out is cleared.
    profiles.save({ name: 'studio', baseUrl: 'https://api.studio.example' });
    expect(profiles.get('studio')).toEqual({ name: 'studio', baseUrl: 'https://api.studio.example' });
    db.close();
  });

  it('says so when an active profile of the user’s has no address and the embedded engine is used', () => {
    const { db, profiles } = store();
    profiles.save({ name: 'draft', legacyBaseUrl: 'https://legacy.example' });
    profiles.activate('draft');
    const connection = resolveConnection({ dataDir: tempDir(), saved: savedProfile(profiles) });
    expect(connection.mode).toBe('local-engine');
    expect(connection.note).toEqual({
      level: 'warning',
      text: 'The active profile "draft" has no service address, so the embedded local engine is used. Set its address in Settings (or asset-studio\'s --base-url), or switch to the "local" profile.',
    });
    profiles.activate('local');
    expect(resolveConnection({ dataDir: tempDir(), saved: savedProfile(profiles) }).note).toBeUndefined();
    db.close();
  });
});
