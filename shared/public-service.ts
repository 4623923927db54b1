// The public service this app is a client for: CSM (Common Sense Machines, csm.ai). Its documented addresses
// are the built-in profile "csm" (main/config/profiles.ts) and where a key given without an address goes
// (main/app/connection.ts); the Settings screen says where its keys are made and links its price list.

/** The built-in profile of the public service (beside "local", the embedded engine). */
export const SERVICE_PROFILE = 'csm';

export const PUBLIC_SERVICE_NAME = 'CSM (Common Sense Machines)';

/**
 * The base URL that the official SDK (CommonSenseMachines/csm-ai: `CSMClient(base_url="https://api.csm.ai")`)
 * and the documentation (docs.csm.ai) use, and the older variant on port 5566 that the SDK's first versions
 * and the vendor's examples call. Tests stand a local server in through the `publicService` option of
 * ProfileStore / resolveConnection / AppSession, never through the environment.
 */
export const PUBLIC_SERVICE = Object.freeze({
  baseUrl: 'https://api.csm.ai',
  legacyBaseUrl: 'https://api.csm.ai:5566',
});

/** Where API keys are made: the profile page of the service's web app (docs.csm.ai, "How to get the API key"). */
export const PUBLIC_SERVICE_KEYS_PAGE = 'https://3d.csm.ai';
/** The plans and what each kind of generation costs in credits. */
export const PUBLIC_SERVICE_PRICES_PAGE = 'https://www.csm.ai/pricing';
/** The service's documentation. */
export const PUBLIC_SERVICE_DOCS = 'https://docs.csm.ai';
