// The Electron shell: the only code that imports 'electron'. Everything else is the plain Node core;
// this file wires it to the app's window: one instance, the renderer served on app://studio/ with the CSP
// (never file://), the bridge over IPC (sender frame checked, inputs validated by the bridge service),
// the window's size and position remembered, native menu and dialogs, OS drag-and-drop as paths, and
// everything else a page could do to leave the app (new windows, navigation, webviews) refused.
// Bundled to dist/electron/main.cjs by scripts/build.ts.
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  type IpcMainInvokeEvent,
  type MenuItemConstructorOptions,
} from 'electron';
import { cachePath } from '../../shared/bridge/web-protocol.ts';
import type { CommandName } from '../../shared/bridge/contract.ts';
import { createServices } from '../app/services.ts';
import { EncryptedFileVault, type Encryptor } from '../config/profiles.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { openDataFolder } from '../store/data-folder.ts';
import { BridgeService, type Dialogs } from '../host/bridge-service.ts';
import { BridgeFailure, toBridgeError } from '../host/errors.ts';
import { startWebHost, type RunningWebHost } from '../host/web-host.ts';
import { appProtocolHandler } from '../host/app-protocol.ts';
import { contentSecurityPolicy, DEFAULT_RENDERER_DIR, securityHeaders } from '../host/static.ts';
import { COMMAND_NAMES, commandChannel, EVENT_CHANNEL, type IpcAnswer } from './ipc.ts';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, EXTERNAL_HOSTS, isAllowedExternal, isAppUrl } from './policy.ts';
import { windowOptions, windowState, WINDOW_STATE_KEY } from './window-factory.ts';

// Bundled into dist/electron/, beside the preload; the renderer is in dist/renderer/ (DEFAULT_RENDERER_DIR).
const PRELOAD = join(__dirname, 'preload.cjs');
const HEADERS = securityHeaders(contentSecurityPolicy());

protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true },
  },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit(); // the running instance is focused by its 'second-instance' handler
} else {
  void app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox('Asset Studio could not start', toBridgeError(error, []).message);
      const exitCode = (error as { exitCode?: unknown } | null)?.exitCode; // 2: an unusable data folder
      app.exit(typeof exitCode === 'number' ? exitCode : 1);
    });
}

let window: BrowserWindow | undefined;

async function start(): Promise<void> {
  // Created 0700, or made private (said on standard error), before anything is written there.
  const dataDir = openDataFolder(resolveDataDir({ flags: {}, env: process.env }));
  // The local link (link.json) for the user's own tools, such as the Blender add-on: the web host's HTTP
  // transport of this same bridge on 127.0.0.1, with its token, Host and Origin checks.
  let link: RunningWebHost | undefined;
  const bridge = await BridgeService.open({
    dataDir,
    openServices: (connection) => createServices(connection),
    // ASSET_STUDIO_BASE_URL / ASSET_STUDIO_API_KEY win over the saved profile, as in the CLI and the web host.
    connectionSources: { env: process.env },
    platform: {
      transport: 'electron',
      keyVault: new EncryptedFileVault(dataDir, safeStorageEncryptor()),
      dialogs: nativeDialogs(),
      resolveFile: (ref) => {
        if ('path' in ref) return ref.path;
        if (link !== undefined) return link.resolveUpload(ref.uploadId); // a file a tool sent over the link
        throw new BridgeFailure({
          code: 'invalid-input',
          message: 'The desktop app takes files by path: drop them on the window or use Open.',
          issues: [{ path: 'file.uploadId', message: 'is for the web host' }],
        });
      },
      cacheUrl: (sessionId, kind) => `${APP_ORIGIN}${cachePath(sessionId, kind)}`,
    },
  });

  link = await startWebHost({ dataDir, bridge });
  lockDownSessions(() => externalHosts(bridge));
  serveApp(bridge);
  for (const command of COMMAND_NAMES) {
    ipcMain.handle(commandChannel(command), (event, input: unknown) => invoke(bridge, event, command, input));
  }
  bridge.onAny((event, payload) => window?.webContents.send(EVENT_CHANNEL, event, payload));

  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(bridge)));
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('will-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    const linkClosed = link?.close().catch(() => undefined) ?? Promise.resolve(); // link.json removed first
    void linkClosed.then(() => bridge.close()).finally(() => app.quit());
  });
  app.on('activate', () => window ?? openWindow(bridge)); // macOS: the dock icon reopens the window
  openWindow(bridge);
}

function openWindow(bridge: BridgeService): void {
  const settings = bridge.services.store.settings;
  const saved = settings.get(WINDOW_STATE_KEY, windowState);
  const win = new BrowserWindow(
    windowOptions({ preloadPath: PRELOAD, saved, workAreas: screen.getAllDisplays().map((d) => d.workArea) }),
  );
  window = win;
  if (saved?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const bounds = win.getNormalBounds();
    settings.set(WINDOW_STATE_KEY, { ...bounds, maximized: win.isMaximized() });
  });
  win.on('closed', () => {
    window = undefined;
  });
  void win.loadURL(`${APP_ORIGIN}/`);
}

/** A command from the renderer: only from our own page's main frame; the bridge parses the input. */
async function invoke(
  bridge: BridgeService,
  event: IpcMainInvokeEvent,
  command: CommandName,
  input: unknown,
): Promise<IpcAnswer> {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame || !isAppUrl(frame.url)) {
    return {
      ok: false,
      error: { code: 'forbidden', message: 'Commands are only accepted from the Asset Studio window.' },
    };
  }
  try {
    return { ok: true, value: await bridge.call(command, input) };
  } catch (error) {
    return { ok: false, error: error instanceof BridgeFailure ? error.error : toBridgeError(error, []) };
  }
}

/**
 * app://studio/: the renderer's files and the cached outputs, every response with the CSP; the same answers
 * as the web host's (host/app-protocol.ts: ranges, ETags, HEAD, the content type of a cached output).
 */
function serveApp(bridge: BridgeService): void {
  protocol.handle(
    APP_SCHEME,
    appProtocolHandler({
      host: APP_HOST,
      rendererDir: DEFAULT_RENDERER_DIR,
      cache: () => bridge.services.cache,
      headers: HEADERS,
    }),
  );
}

/** No new windows, no navigation away, no webviews, no permissions; https links of known hosts go to the browser. */
function lockDownSessions(allowedHosts: () => readonly string[]): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isAllowedExternal(url, allowedHosts())) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** The fixed hosts, and those of the profiles' https service addresses. */
function externalHosts(bridge: BridgeService): string[] {
  return [...EXTERNAL_HOSTS, ...bridge.profiles().flatMap((p) => (p.baseUrl ? [new URL(p.baseUrl).hostname] : []))];
}

function nativeDialogs(): Dialogs {
  return {
    async openFiles({ filters, multiple }) {
      const extensions = (filters ?? []).map((f) => f.replace(/^\*?\./, ''));
      const result = await dialog.showOpenDialog({
        properties: multiple ? ['openFile', 'multiSelections'] : ['openFile'],
        ...(extensions.length > 0 && { filters: [{ name: 'Supported files', extensions }] }),
      });
      return result.canceled ? [] : result.filePaths;
    },
    async chooseFolder({ title }) {
      const result = await dialog.showOpenDialog({
        properties: ['openDirectory', 'createDirectory'],
        ...(title && { title }),
      });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  };
}

/** safeStorage, refusing Linux's `basic_text` backend (a hard-coded password: not protection). */
function safeStorageEncryptor(): Encryptor {
  return {
    unavailableReason() {
      if (!safeStorage.isEncryptionAvailable()) return 'the OS keychain is not available';
      if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
        return 'no keyring (GNOME Keyring, KWallet) is running, so the key would be stored with a well-known password';
      }
      return undefined;
    },
    encrypt: (text) => safeStorage.encryptString(text),
    decrypt: (data) => safeStorage.decryptString(data),
  };
}

function menuTemplate(bridge: BridgeService): MenuItemConstructorOptions[] {
  const openFiles = async () => {
    const result = await dialog.showOpenDialog({
      properties: ['openFile', 'openDirectory', 'multiSelections'],
      filters: [{ name: 'Images, FBX and zip', extensions: ['png', 'jpg', 'jpeg', 'webp', 'fbx', 'zip'] }],
    });
    if (result.canceled || result.filePaths.length === 0) return;
    // The batch dialog of the window shows them with their options and cost; nothing is sent before its Submit.
    await bridge.offerFiles(result.filePaths).catch((error: unknown) => {
      dialog.showErrorBox(
        'The files could not be added',
        error instanceof BridgeFailure ? error.error.message : String(error),
      );
    });
  };
  return [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Add Files…', accelerator: 'CmdOrCtrl+O', click: () => void openFiles() },
        { type: 'separator' },
        { role: process.platform === 'darwin' ? 'close' : 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Asset Studio on GitHub', click: () => void shell.openExternal('https://github.com/') }],
    },
  ];
}
