// Which cached output is a job's model: the one ranking (shared/kinds/job-model.ts) the job page's preview,
// the library's thumbnails and an export share. Before it, each ranked the outputs its own way; the cases
// where they disagreed are pinned here.
import { describe, expect, it } from 'vitest';
import { jobModel, modelRank, rankModels } from '../../shared/kinds/job-model.ts';
import { parseOutputKind } from '../../shared/output-kind.ts';

const outputs = (...kinds: string[]) => kinds.map((kind) => ({ kind }));
const model = (kinds: string[], options: Parameters<typeof jobModel>[1] = {}) =>
  jobModel(outputs(...kinds), options)?.output.kind;

describe('the model of a job', () => {
  it('ranks the refined mesh over the final one over the preview (the job page took the final one first)', () => {
    expect(model(['preview_glb', 'glb', 'polished_glb'])).toBe('polished_glb');
    expect(model(['preview_glb', 'glb'])).toBe('glb');
    expect(model(['preview_glb', 'spin_0'])).toBe('preview_glb');
  });

  it("puts the older flow's preview mesh first for its preview step (the thumbnails' ranking had no step)", () => {
    expect(model(['glb', 'polished_glb', 'preview_glb'], { step: 'preview' })).toBe('preview_glb');
    expect(model(['glb', 'polished_glb', 'preview_glb'], { step: 'refine' })).toBe('polished_glb');
  });

  it('within a stage: GLB, FBX, OBJ, USDZ; a better stage before a better format (the job page took any GLB first)', () => {
    expect(rankModels(outputs('usdz', 'obj', 'fbx', 'glb')).map((r) => r.format)).toEqual([
      'glb',
      'fbx',
      'obj',
      'usdz',
    ]);
    expect(model(['preview_glb', 'obj'])).toBe('obj');
    // The zip holds the OBJ with its files: not a model of its own (the viewer opens the OBJ from inside it).
    expect(model(['zip', 'spin_0'])).toBeUndefined();
    expect(modelRank(parseOutputKind('zip'))).toBeGreaterThan(modelRank(parseOutputKind('usdz'))!);
  });

  it('only the formats asked for: the thumbnails render GLB and OBJ', () => {
    expect(model(['fbx', 'usdz', 'polished_obj', 'preview_glb'], { formats: ['glb', 'obj'] })).toBe('polished_obj');
    expect(model(['image', 'fbx', 'usdz', 'spin_0', 'mp4'], { formats: ['glb', 'obj'] })).toBeUndefined();
  });

  it("a mesh animation's animated model, then its clips; never its uploaded mesh", () => {
    expect(model(['prompt:p1', 'library:l1', 'animation', 'mesh'])).toBe('animation');
    expect(model(['prompt:p1', 'library:l1', 'mesh'])).toBe('library:l1');
    expect(model(['prompt:p1:usdz', 'prompt:p1'])).toBe('prompt:p1');
    expect(model(['mesh'])).toBeUndefined();
    // An FBX animation (the service's) is not drawn where only GLB is read: a GLB clip is.
    const formatOf = (o: { kind: string }) => (o.kind === 'animation' ? 'fbx' : 'glb') as 'glb' | 'fbx';
    expect(model(['animation', 'prompt:p1'], { formats: ['glb'], animatedFormat: formatOf })).toBe('prompt:p1');
    expect(jobModel(outputs('animation'), { animatedFormat: formatOf })?.format).toBe('fbx');
    // The job page shows animated models in its animation panel: its preview takes the prompt's USDZ at most.
    expect(model(['animation', 'prompt:p1', 'prompt:p1:usdz'], { animated: false })).toBe('prompt:p1:usdz');
  });

  it("a retopology's first OBJ, not its picture", () => {
    expect(model(['retopo_image', 'retopo_obj_1', 'retopo_obj'])).toBe('retopo_obj');
  });
});
