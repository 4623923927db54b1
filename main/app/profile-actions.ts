// The API key of a profile: stored (OS keychain, or for this session only) or removed; write-only, so a
// profile's view says whether a key is configured and where, never the key. Changing the active profile's
// key reconnects.
import type { ProfileView } from '../../shared/bridge/contract.ts';
import type { AppSession } from './app-session.ts';

export function profileView(session: AppSession, name: string): ProfileView {
  return { ...session.profiles.get(name), key: session.profiles.keyStatus(name) };
}

export async function setKey(
  session: AppSession,
  profile: string,
  key: string,
  sessionOnly: boolean,
): Promise<ProfileView> {
  session.secrets.add(key);
  session.profiles.setKey(profile, key, sessionOnly);
  if (profile === session.profiles.activeName()) await session.rebuild();
  return profileView(session, profile);
}

export async function removeKey(session: AppSession, profile: string): Promise<ProfileView> {
  const { profiles } = session;
  profiles.removeKey(profile);
  if (profile === profiles.activeName() && profiles.get(profile).baseUrl !== undefined) await session.rebuild();
  return profileView(session, profile);
}
