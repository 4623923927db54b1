// The bridge the UI talks through: the Electron preload's `window.assetStudio` when present, otherwise
// the web host client. Both implement the same BridgeApi of shared/bridge/contract.ts.
import type { BridgeApi } from '../../shared/bridge/contract.ts';
import { BridgeCallError, WebBridgeClient, type ConnectionState, type UploadProgress } from './web-client.ts';

export { BridgeCallError, isBridgeError } from './web-client.ts';
export type { UploadProgress, ConnectionState } from './web-client.ts';

/** What the Electron preload may expose besides the BridgeApi. */
interface ElectronBridge extends BridgeApi {
  /** The local path of a dropped or picked File (Electron's webUtils.getPathForFile). */
  pathForFile?(file: File): string;
}

declare global {
  interface Window {
    assetStudio?: ElectronBridge;
  }
}

/** A local file as the commands take it: a path (Electron) or an upload id (web host). */
export type FileRef = { path: string } | { uploadId: string };

export interface Transport {
  kind: 'electron' | 'web';
  api: BridgeApi;
  /** Makes a local file usable by a command, uploading it first when the transport needs to. */
  fileRef(file: File, onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<FileRef>;
  /** Follows the event connection (always open under Electron). */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

let transport: Transport | undefined;

export function getTransport(): Transport {
  if (transport) return transport;
  const electron = typeof window !== 'undefined' ? window.assetStudio : undefined;
  if (electron) {
    transport = {
      kind: 'electron',
      api: electron,
      async fileRef(file, onProgress) {
        const path = electron.pathForFile?.(file);
        if (!path)
          throw new BridgeCallError({
            code: 'file_path_unknown',
            message: `The location of ${file.name} is not known: use the Browse button to pick it.`,
          });
        onProgress?.({ sent: file.size, total: file.size });
        return { path };
      },
      onConnection(listener) {
        listener('open');
        return () => {};
      },
    };
  } else {
    const client = new WebBridgeClient();
    transport = {
      kind: 'web',
      api: client,
      fileRef: (file, onProgress, signal) => client.upload(file, onProgress, signal),
      onConnection: (listener) => client.onConnection(listener),
    };
  }
  return transport;
}

/** The BridgeApi of this page (Electron preload or web host). */
export function getBridge(): BridgeApi {
  return getTransport().api;
}
