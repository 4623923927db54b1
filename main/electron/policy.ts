// What the desktop window may load and open: only the app's own origin inside, only https addresses of
// known hosts outside (in the user's browser). Pure, so it is tested without Electron.

/** The renderer is served from `app://studio/` (a standard, secure scheme registered by main.ts). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Hosts always allowed to open in the browser (and their subdomains): GitHub, and the public service's
 * pages that Settings links (3d.csm.ai where keys are made, www.csm.ai/pricing, docs.csm.ai); the hosts of
 * the profiles' service addresses are added.
 */
export const EXTERNAL_HOSTS: readonly string[] = ['github.com', 'csm.ai'];

export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** https only, to one of `hosts` or a subdomain of one, with no credentials in the URL. */
export function isAllowedExternal(url: string, hosts: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '') return false;
  const host = u.hostname.toLowerCase();
  return hosts.some((h) => host === h.toLowerCase() || host.endsWith(`.${h.toLowerCase()}`));
}
