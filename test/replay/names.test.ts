// Names come from the path of a URL only (issue #22): the real service hands out signed URLs (Azure SAS
// query strings), which never reach a job label, an export folder or a file name.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { labelOf } from '../../main/app/create-job.ts';
import { COMMANDS } from '../../main/cli/command-table.ts';
import { ENDPOINTS } from '../../shared/contract/index.ts';
import { defaultExportName } from '../../main/export/from-job.ts';
import { fileNameOf, fileStemOf } from '../../shared/url-name.ts';
import { realFixture } from '../fixtures.ts';
import { tempDataDir } from '../cli/run-cli.ts';
import { cli } from './helpers.ts';
import { type ReplayServer, SAS, startReplay } from './replay-server.ts';

describe('fileNameOf: the one function that names a file from a URL', () => {
  it.each([
    [`https://imageto3d.blob.core.windows.net/data/SESSION_1/mesh.glb?${SAS}`, 'mesh.glb'],
    [
      'https://image-url.com/SESSION_11_1710422392_4549402_Moon walk.fbx',
      'SESSION_11_1710422392_4549402_Moon walk.fbx',
    ],
    [`https://host/a/Moon%20walk.fbx?${SAS}#frag`, 'Moon walk.fbx'],
    ['https://host/a/folder/', 'folder'],
    ['data:image/png;base64,iVBORw0KGgo=', ''],
    ['/home/me/models/chair?.glb', 'chair?.glb'],
    ['C:\\models\\chair.png', 'chair.png'],
    ['chair.png', 'chair.png'],
  ])('%s → %s', (url, name) => {
    expect(fileNameOf(url)).toBe(name);
  });

  it('its stem leaves the extension out', () => {
    expect(fileStemOf(`https://host/x/retopo_mesh_0.obj?${SAS}`)).toBe('retopo_mesh_0');
  });

  it('names the jobs of the app and the export folders, also of labels older versions made', () => {
    expect(labelOf('createRetopology', { input: { mesh: `https://h/a/mesh.glb?${SAS}` } }, undefined)).toBe('mesh.glb');
    expect(labelOf('createRetopology', { input: { mesh: 'ASSET_1747335632_4906245' } }, undefined)).toBe(
      'ASSET_1747335632_4906245',
    );
    expect(labelOf('uploadAnimationMesh', { mesh_url: `https://h/m/Male_Casual.fbx?${SAS}` }, undefined)).toBe(
      'Male_Casual.fbx',
    );
    expect(defaultExportName(`retopology mesh.glb?${SAS}`)).toBe('mesh');
    expect(defaultExportName(`retopology https://h/a/mesh.glb?${SAS}`)).toBe('mesh');
    expect(defaultExportName('create-3d chair.png')).toBe('chair');
    expect(defaultExportName('text-to-image what is this?')).toBe('what is this?');
    // Only the CLI's command word goes: the app's own labels keep their first word.
    expect(defaultExportName('hero to animate')).toBe('hero to animate');
    expect(defaultExportName('red barrel')).toBe('red barrel');
    expect(defaultExportName('Male_Casual.fbx')).toBe('Male_Casual');
  });

  it('the export drops the command word of every creating command of the CLI (its copy of their names keeps up)', () => {
    // main/export cannot import main/cli: this keeps its list of the CLI's command words in step with the table.
    const creating = COMMANDS.filter((c) => c.endpoint !== undefined && ENDPOINTS[c.endpoint].mutating);
    expect(creating.length).toBeGreaterThan(5);
    for (const command of creating) expect(defaultExportName(`${command.name} chair.png`), command.name).toBe('chair');
  });
});

describe('a retopology of a signed GLB URL, through the CLI', () => {
  let replay: ReplayServer;
  beforeEach(async () => {
    replay = await startReplay();
  });
  afterEach(async () => {
    await replay.close();
  });

  it('is labelled, downloaded and exported by the file name only (no mesh.glb_sp=r&st=… folder)', async () => {
    const dataDir = tempDataDir();
    const mesh = `${replay.files}/inference-outputs/SESSION_1747336753_6390509/mesh.glb?${SAS}`;
    const created = await cli(replay, ['retopology', mesh, '--json'], dataDir);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { data } = JSON.parse(created.stdout) as { data: { _id: string } };
    // Watched (not --json): read every few seconds, so the replay's incomplete → complete is seen at once.
    const waited = await cli(replay, ['wait', data._id, '--timeout', '30'], dataDir);
    expect(waited.code).toBe(0);
    expect(waited.stderr).not.toMatch(/sp=r|sig=/);
    const [job] = JSON.parse((await cli(replay, ['jobs', '--json'], dataDir)).stdout) as {
      label: string;
      state: string;
    }[];
    expect(job).toMatchObject({ label: 'retopology mesh.glb', state: 'succeeded' });

    const pulled = await cli(replay, ['pull', data._id], dataDir);
    expect(pulled.code).toBe(0);
    // The files came from the signed URLs, with the real bytes.
    const downloads = replay.requests.filter((r) => r.path.startsWith('/blob/'));
    expect(downloads.every((r) => r.query.get('sig') !== null)).toBe(true);

    const project = mkdtempSync(join(tmpdir(), 'asset-studio-replay-project-'));
    const exported = await cli(
      replay,
      ['export', data._id, '--project', project, '--engine', 'folder', '--format', 'obj'],
      dataDir,
    );
    expect(exported.stderr).not.toMatch(/sp=r|sig=/);
    expect(exported.code).toBe(0);
    const folders = readdirSync(project, { recursive: true }).map(String);
    expect(folders.some((f) => /sp=r|sig=|[?&]/.test(f))).toBe(false);
    expect(folders.some((f) => f.split(/[\\/]/).includes('mesh'))).toBe(true);
    const obj = folders.find((f) => f.endsWith('.obj'));
    expect(obj).toBeDefined();
    expect(readFileSync(join(project, obj!), 'utf8')).toBe(
      readFileSync(realFixture('obj', 'suzanne', 'blender_282_suzanne.obj'), 'utf8'),
    );
    expect(existsSync(project)).toBe(true);
  });
});
