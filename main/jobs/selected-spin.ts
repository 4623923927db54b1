// get-3d/preview takes the chosen spin view twice: by its index (selected_spin_index) and by its URL
// (selected_spin). The documentation says both must be passed for a turbo preview, and the official SDK
// (csm-ai, every release with a preview) always sends the URL, read from the session's `spins`. A preview
// asked by index only is completed here the same way, before it is journaled and sent.
import type { CallArgs, ServiceClient } from '../api/client.ts';

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});

/** The call with `selected_spin` filled from the session's spin at `selected_spin_index`, when it was not given. */
export async function withSelectedSpin(client: Pick<ServiceClient, 'getImageTo3d'>, args: CallArgs): Promise<CallArgs> {
  const body = record(args.body);
  const code = args.params?.session_code;
  const index = body.selected_spin_index;
  if (code === undefined || typeof index !== 'number' || body.selected_spin !== undefined) return args;
  let session: Fields;
  try {
    session = record(await client.getImageTo3d(code, { signal: args.signal }));
  } catch {
    return args; // unreadable here: the service is left to pick the spin by its index (and refuses a bad code itself)
  }
  // `spins` in a read of the session; the older form lists the same four views as `inference`.
  const spins = Array.isArray(session.spins)
    ? session.spins
    : Array.isArray(session.inference)
      ? session.inference
      : [];
  const url = record(spins[index]).image_url;
  return typeof url === 'string' && url !== '' ? { ...args, body: { ...body, selected_spin: url } } : args;
}
