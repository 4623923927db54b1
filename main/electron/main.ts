// The Electron shell: the only code that imports 'electron'. Everything else is the plain Node core;
// this file wires it to the app's window: one instance, the renderer served on app://studio/ with the CSP
// (never file://), the bridge over IPC (sender frame checked, inputs validated by the bridge service),
// the window's size and position remembered, native menu and dialogs, OS drag-and-drop as paths, and
// everything else a page could do to leave the app (new windows, navigation, webviews) refused.
// Bundled to dist/electron/main.cjs by scripts/build.ts.
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, safeStorage, screen, session, shell, type IpcMainInvokeEvent, type MenuItemConstructorOptions } from 'electron';
import { cachePath, parseCachePath, WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import type { CommandName } from '../../shared/bridge/contract.ts';
import { createServices } from '../app/services.ts';
import { entryPathOf, openCachedZipEntry, ZipEntryError } from '../cache/zip-entries.ts';
import { EncryptedFileVault, type Encryptor } from '../config/profiles.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { openDataFolder } from '../store/data-folder.ts';
import { BridgeService, type Dialogs } from '../host/bridge-service.ts';
import { BridgeFailure, toBridgeError } from '../host/errors.ts';
import { assetContentSecurityPolicy, contentSecurityPolicy, contentType, DEFAULT_RENDERER_DIR, isBuilt, NOT_BUILT_PAGE, resolveAsset, securityHeaders } from '../host/static.ts';
import { COMMAND_NAMES, commandChannel, EVENT_CHANNEL, type IpcAnswer } from './ipc.ts';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, EXTERNAL_HOSTS, isAllowedExternal, isAppUrl } from './policy.ts';
import { windowOptions, windowState, WINDOW_STATE_KEY } from './window-factory.ts';

// Bundled into dist/electron/, beside the preload; the renderer is in dist/renderer/ (DEFAULT_RENDERER_DIR).
const PRELOAD = join(__dirname, 'preload.cjs');
const HEADERS = securityHeaders(contentSecurityPolicy());

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true } }]);

if (!app.requestSingleInstanceLock()) {
  app.quit(); // the running instance is focused by its 'second-instance' handler
} else {
  void app.whenReady().then(start).catch((error: unknown) => {
    dialog.showErrorBox('Asset Studio could not start', toBridgeError(error, []).message);
    const exitCode = (error as { exitCode?: unknown } | null)?.exitCode; // 2: an unusable data folder
    app.exit(typeof exitCode === 'number' ? exitCode : 1);
  });
}

let window: BrowserWindow | undefined;

async function start(): Promise<void> {
  // Created 0700, or made private (said on standard error), before anything is written there.
  const dataDir = openDataFolder(resolveDataDir({ flags: {}, env: process.env }));
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
        throw new BridgeFailure({ code: 'invalid-input', message: 'The desktop app takes files by path: drop them on the window or use Open.', issues: [{ path: 'file.uploadId', message: 'is for the web host' }] });
      },
      cacheUrl: (sessionId, kind) => `${APP_ORIGIN}${cachePath(sessionId, kind)}`,
    },
  });

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
    void bridge.close().finally(() => app.quit());
  });
  app.on('activate', () => window ?? openWindow(bridge)); // macOS: the dock icon reopens the window
  openWindow(bridge);
}

function openWindow(bridge: BridgeService): void {
  const settings = bridge.services.store.settings;
  const saved = settings.get(WINDOW_STATE_KEY, windowState);
  const win = new BrowserWindow(windowOptions({ preloadPath: PRELOAD, saved, workAreas: screen.getAllDisplays().map((d) => d.workArea) }));
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
async function invoke(bridge: BridgeService, event: IpcMainInvokeEvent, command: CommandName, input: unknown): Promise<IpcAnswer> {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame || !isAppUrl(frame.url)) {
    return { ok: false, error: { code: 'forbidden', message: 'Commands are only accepted from the Asset Studio window.' } };
  }
  try {
    return { ok: true, value: await bridge.call(command, input) };
  } catch (error) {
    return { ok: false, error: error instanceof BridgeFailure ? error.error : toBridgeError(error, []) };
  }
}

/** app://studio/: the renderer's files and the cached outputs, every response with the CSP. */
function serveApp(bridge: BridgeService): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404, headers: HEADERS });
    let file: string | undefined;
    if (url.pathname.startsWith(WEB_PROTOCOL.cachePrefix)) {
      const parsed = parseCachePath(url.pathname.slice(WEB_PROTOCOL.cachePrefix.length));
      const entry = parsed && entryPathOf(parsed.entry);
      if (parsed && entry !== undefined) return zipEntryResponse(bridge, parsed.sessionId, parsed.kind, entry);
      file = parsed ? bridge.services.cache.open(parsed.sessionId, parsed.kind) : undefined;
    } else if (!isBuilt(DEFAULT_RENDERER_DIR)) {
      return new Response(NOT_BUILT_PAGE, { status: 503, headers: { ...HEADERS, 'content-type': 'text/html; charset=utf-8' } });
    } else {
      file = resolveAsset(DEFAULT_RENDERER_DIR, url.pathname);
    }
    if (file === undefined) return new Response('Not found', { status: 404, headers: HEADERS });
    const response = await net.fetch(pathToFileURL(file).toString(), { bypassCustomProtocolHandlers: true });
    const ownPolicy = assetContentSecurityPolicy(url.pathname);
    const headers = { ...HEADERS, 'content-type': contentType(file), ...(ownPolicy !== undefined && { 'content-security-policy': ownPolicy }) };
    return new Response(response.body, { status: response.status, headers });
  });
}

/** A file inside a cached zip (`app://studio/cache/<session>/<kind>/<entry path>`), as the web host serves it. */
async function zipEntryResponse(bridge: BridgeService, sessionId: string, kind: string, name: string): Promise<Response> {
  try {
    const opened = await openCachedZipEntry(bridge.services.cache, sessionId, kind, name);
    const body = Readable.toWeb(opened.stream) as unknown as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers: { ...HEADERS, 'content-type': opened.contentType, 'content-length': String(opened.size) } });
  } catch (error) {
    if (!(error instanceof ZipEntryError)) throw error;
    return new Response(error.message, { status: error.status, headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
  }
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
      const result = await dialog.showOpenDialog({ properties: ['openDirectory', 'createDirectory'], ...(title && { title }) });
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
    const result = await dialog.showOpenDialog({ properties: ['openFile', 'openDirectory', 'multiSelections'], filters: [{ name: 'Images, FBX and zip', extensions: ['png', 'jpg', 'jpeg', 'webp', 'fbx', 'zip'] }] });
    if (result.canceled || result.filePaths.length === 0) return;
    await bridge.call('batch.start', { files: result.filePaths.map((path) => ({ path })) }).catch((error: unknown) => {
      dialog.showErrorBox('The files could not be added', error instanceof BridgeFailure ? error.error.message : String(error));
    });
  };
  return [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { label: 'File', submenu: [{ label: 'Add Files…', accelerator: 'CmdOrCtrl+O', click: () => void openFiles() }, { type: 'separator' }, { role: process.platform === 'darwin' ? 'close' : 'quit' }] },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]), { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Asset Studio on GitHub', click: () => void shell.openExternal('https://github.com/') }] },
  ];
}
