// An animation job's files and clips in the page, as the service delivers them (FBX behind signed URLs): the
// viewer lists them with the format their bytes show (main reports it) and opens on the user's first prompt;
// the export takes the user's prompts by default, library clips when ticked, as the CLI does.
import { describe, expect, it } from 'vitest';
import type { CachedOutput, JobView } from '../../shared/bridge/contract.ts';
import { animationFiles, clipChecked, exportClipsOf } from '../../renderer/src/screens/viewer/animation-clips.ts';

const SAS = '?sp=r&st=2025-01-01T00%3A00%3A00Z&se=2025-01-02T00%3A00%3A00Z&sv=2022-11-02&sr=b&sig=x';
const result = {
  session_code: 'SESSION_1',
  status: 'predefined_done',
  mesh_url: `https://blob/SESSION_1/mesh.zip${SAS}`,
  animation_url: `https://blob/SESSION_1/Male_Casual_animation.fbx${SAS}`,
  animation_library: [{ _id: 'L1', label: 'Idle', url: `https://blob/lib/Idle.fbx${SAS}` }],
  prompts: [
    {
      _id: 'P1',
      text: 'Moon walk',
      mesh_url: `https://blob/SESSION_1/Male_Casual_Moon walk.fbx${SAS}`,
      status: 'text_done',
    },
    { _id: 'P2', text: 'wave', mesh_url: `https://blob/SESSION_1/Male_Casual_wave.fbx${SAS}`, status: 'text_done' },
  ],
};
const job = { kind: 'animation_session', result, step: null } as unknown as JobView;
const output = (kind: string): CachedOutput => ({
  sessionId: 'SESSION_1',
  kind,
  state: 'complete',
  size: 1000,
  url: `/cache/SESSION_1/${kind}`,
  error: null,
  format: 'fbx',
});
const outputs = ['animation', 'library:L1', 'prompt:P2', 'prompt:P1', 'render'].map(output);

describe('an FBX animation job in the page', () => {
  it('lists its FBX files, the first prompt first, then the session animation and the library', () => {
    const files = animationFiles(outputs, job);
    expect(files.map((f) => [f.name, f.format])).toEqual([
      ['prompt:P1', 'fbx'],
      ['prompt:P2', 'fbx'],
      ['animation', 'fbx'],
      ['library:L1', 'fbx'],
    ]);
    // A file whose format main could not tell is not offered to a loader that would guess.
    expect(animationFiles([{ ...output('prompt:P1'), format: undefined }], job)).toEqual([]);
  });

  it('exports the prompts by default; a library clip only when ticked', () => {
    const clips = exportClipsOf(outputs, job);
    expect(clips.map((c) => [c.name, c.source])).toEqual([
      ['Prompt: Moon walk', 'prompt'],
      ['Prompt: wave', 'prompt'],
      ['Library: Idle', 'library'],
    ]);
    const none = new Set<string>();
    expect(clips.filter((c) => clipChecked(c, clips, none)).map((c) => c.name)).toEqual([
      'Prompt: Moon walk',
      'Prompt: wave',
    ]);
    expect(clips.filter((c) => clipChecked(c, clips, new Set(['library:L1']))).map((c) => c.name)).toEqual([
      'Prompt: Moon walk',
      'Prompt: wave',
      'Library: Idle',
    ]);
    const library = clips.filter((c) => c.source === 'library');
    expect(library.every((c) => clipChecked(c, library, none))).toBe(true); // no prompt: the library is the job's
  });
});
