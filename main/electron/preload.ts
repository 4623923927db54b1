// The preload (sandboxed, bundled to CommonJS by scripts/build.ts): exposes `window.assetStudio`, the
// BridgeApi of the contract, and `pathForFile` for dropped files. Only these functions cross: never
// ipcRenderer itself, nor the IPC event object.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { BridgeError, CommandName, EventName } from '../../shared/bridge/contract.ts';
import { COMMAND_NAMES, commandChannel, EVENT_CHANNEL, type IpcAnswer } from './ipc.ts';

const commands = new Set<string>(COMMAND_NAMES);
const listeners = new Map<string, Set<(payload: unknown) => void>>();

ipcRenderer.on(EVENT_CHANNEL, (_event: IpcRendererEvent, name: string, payload: unknown) => {
  for (const listener of listeners.get(name) ?? []) listener(payload);
});

/**
 * A failed call rejects with the plain BridgeError `{code, message, issues?}`: contextBridge copies an
 * Error without its own properties, but a plain object whole. The renderer turns it into its error class.
 */
function bridgeError(error: BridgeError): BridgeError {
  return { code: error.code, message: error.message, ...(error.issues && { issues: error.issues }) };
}

contextBridge.exposeInMainWorld('assetStudio', {
  async call(command: string, input: unknown): Promise<unknown> {
    if (!commands.has(command))
      throw bridgeError({ code: 'invalid-input', message: `"${command}" is not a command of Asset Studio.` });
    const answer = (await ipcRenderer.invoke(commandChannel(command as CommandName), input)) as IpcAnswer;
    if (!answer.ok) throw bridgeError(answer.error);
    return answer.value;
  },
  on(event: EventName, listener: (payload: unknown) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('on(event, listener): the listener must be a function');
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  },
  /** The local path of a dropped or picked File (empty for files that are not on disk). */
  pathForFile(file: File): string {
    return webUtils.getPathForFile(file);
  },
});
