// Uploads one file for animation through the client in a process of its own, and prints one JSON line
// (ChildReport in helpers.ts) with the process's peak memory, for the memory test and the transfer bench.
//   node test/files/upload-child.ts <base-url> <api-key> <file>
import { ServiceClient } from '../../main/api/client.ts';
import { ServiceResponseError } from '../../main/api/errors.ts';
import type { ChildReport } from './helpers.ts';

const [baseUrl, apiKey, file] = process.argv.slice(2);
if (!baseUrl || !apiKey || !file) {
  process.stderr.write('usage: node test/files/upload-child.ts <base-url> <api-key> <file>\n');
  process.exit(2);
}
const client = new ServiceClient({ baseUrl, apiKey });
/** The peak before the upload: the runtime and the client's modules (about 110 MB), not the upload's own cost. */
const baseRssBytes = process.resourceUsage().maxRSS * 1024;
let sent = 0;
const start = performance.now();
// A refusal after the whole file was received (the local engine reads at most 128 MiB of an FBX) still measures
// what sending it cost; any other failure fails the child.
let refused: string | undefined;
const result = await client
  .uploadAnimationMesh({ file }, { onUploadProgress: (p) => (sent = p.sent) })
  .catch((error: unknown) => {
    if (!(error instanceof ServiceResponseError && error.status === 400)) throw error;
    refused = error.message;
    return undefined;
  });
const seconds = (performance.now() - start) / 1000;
await client.close();
const report: ChildReport = {
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
  baseRssBytes,
  seconds,
  sent,
  sessionCode: result?.session_code ?? null,
  ...(refused !== undefined && { refused }),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
