// The IPC channels of the bridge, derived from the contract: one `invoke` channel per command and one
// channel for every event. Imported by the preload (bundled) and by main.
import { COMMANDS, type BridgeError, type CommandName } from '../../shared/bridge/contract.ts';

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function commandChannel(command: CommandName): string {
  return `bridge:call:${command}`;
}

/** Main → renderer: `(event name, payload)`. */
export const EVENT_CHANNEL = 'bridge:event';

/** What an invoke answers: a thrown error would lose its code and issues on the way through Electron. */
export type IpcAnswer = { ok: true; value: unknown } | { ok: false; error: BridgeError };
