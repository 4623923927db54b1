// What the retopology form sends for a library model (renderer/src/service-mesh.ts): a retopology's asset id,
// else the service's own URL of the job's GLB; never a link to this computer when the service is remote.
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../shared/bridge/contract.ts';
import { isThisComputer, serviceMeshOf } from '../../renderer/src/service-mesh.ts';

const job = (kind: string, result: unknown, step: string | null = null) =>
  ({ id: 'job_1', kind, step, texts: null, label: 'chair.png', name: 'chair.png', result }) as unknown as JobView;

describe('serviceMeshOf', () => {
  const remoteGlb = 'https://files.example.com/SESSION_1/mesh.glb?sig=x';
  const engineGlb = 'http://127.0.0.1:41234/files/SESSION_1/mesh-1.glb?expires=1&sig=x';

  it("sends the service URL of an image-to-3D job's GLB", () => {
    expect(serviceMeshOf(job('image_to_3d', { mesh_url_glb: remoteGlb }), true)).toEqual({ mesh: remoteGlb });
  });

  it("sends a retopology's output asset id", () => {
    expect(
      serviceMeshOf(job('v3_session', { output: { meshes: [{ _id: 'ASSET_abc', status: 'ready', data: {} }] } }), true),
    ).toEqual({ mesh: 'ASSET_abc' });
  });

  it('sends the local engine its own link, but never a link to this computer to a remote service', () => {
    expect(serviceMeshOf(job('image_to_3d', { mesh_url_glb: engineGlb }), false)).toEqual({ mesh: engineGlb });
    const refused = serviceMeshOf(job('image_to_3d', { mesh_url_glb: engineGlb }), true);
    expect(refused).toEqual({
      reason:
        '"chair.png" was made by the local engine: its file is on this computer, which the service cannot read. Export it, put it at an https URL and paste that URL.',
    });
  });

  it('says so when the job has no GLB', () => {
    expect(serviceMeshOf(job('image_to_3d', {}), true)).toEqual({
      reason: '"chair.png" has no GLB at the service to start from.',
    });
  });

  it("knows the links of this computer: loopback hosts and the app's own paths", () => {
    for (const url of ['http://127.0.0.1:5/x.glb', 'http://localhost/x', 'http://[::1]:8/x', '/cache/SESSION_1/glb'])
      expect(isThisComputer(url), url).toBe(true);
    for (const url of [remoteGlb, 'ASSET_abc', 'not a url']) expect(isThisComputer(url), url).toBe(false);
  });
});
