import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, styleName, uniqueName } from '../../main/export/naming.ts';
import { assertPlainName } from '../../main/export/paths.ts';
import { fileName, PRESETS, selectFiles, type FileKind } from '../../main/export/presets.ts';
import { ExportError } from '../../main/export/errors.ts';

describe('styleName', () => {
  it('drops bidirectional controls and other invisible characters in every style (issue #33)', () => {
    const spoof = 'chair\u202Egpj.exe'; // shown as "chairexe.jpg"
    expect(styleName(spoof, 'keep')).toBe('chairgpj.exe');
    expect(styleName(spoof, 'pascal')).toBe('ChairGpjExe');
    expect(styleName(spoof, 'snake')).toBe('chair_gpj_exe');
    const hidden = '\u2066oak\u200B chair\u2069\u200F\uFEFF\u2028\u061C';
    expect(styleName(hidden, 'keep')).toBe('oak_chair');
    expect(styleName('\u202E\u202D', 'keep')).toBe('Asset');
    for (const style of ['keep', 'pascal', 'snake'] as const)
      expect(styleName('a\u202Bb\u202Ac\u2067d\u2068e', style)).not.toMatch(/[\p{Cf}\p{Cc}]/u);
  });

  it.each([
    ['oak chair', 'OakChair', 'oak_chair', 'oak_chair'],
    ['myCoolChair v2', 'MyCoolChairV2', 'my_cool_chair_v2', 'myCoolChair_v2'],
    ['FBXModel', 'FBXModel', 'fbx_model', 'FBXModel'],
    ['Café Crème', 'CafeCreme', 'cafe_creme', 'Café_Crème'],
    ['a<b>c:d"e|f?g*h', 'ABCDEFGH', 'a_b_c_d_e_f_g_h', 'a_b_c_d_e_f_g_h'],
    ['  spaced  out.  ', 'SpacedOut', 'spaced_out', 'spaced_out'],
    ['...hidden', 'Hidden', 'hidden', 'hidden'],
    ['trailing dots...', 'TrailingDots', 'trailing_dots', 'trailing_dots'],
    ['椅子', 'Asset', 'asset', '椅子'],
    ['???', 'Asset', 'asset', 'Asset'],
  ])('%j -> Pascal %j, snake %j, kept %j', (raw, pascal, snake, keep) => {
    expect(styleName(raw, 'pascal')).toBe(pascal);
    expect(styleName(raw, 'snake')).toBe(snake);
    expect(styleName(raw, 'keep')).toBe(keep);
  });

  it('never gives a name Windows reserves, with or without an extension', () => {
    expect(styleName('con', 'pascal')).toBe('Con_');
    expect(styleName('NUL', 'snake')).toBe('nul_');
    expect(styleName('com1', 'keep')).toBe('com1_');
    expect(styleName('LPT9.final', 'keep')).toBe('LPT9_.final');
    expect(styleName('console', 'pascal')).toBe('Console');
  });

  it('cuts long names to MAX_NAME_LENGTH without splitting a character or leaving a trailing separator', () => {
    const long = styleName('oak '.repeat(40), 'snake'); // "oak_oak_..." cut where a "_" would end it
    expect(long.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    expect(long).toMatch(/^oak(_oak)+$/);
    const emoji = styleName('🪑'.repeat(100), 'keep');
    expect(Array.from(emoji)).toHaveLength(MAX_NAME_LENGTH);
    expect(emoji.isWellFormed()).toBe(true);
  });
});

describe('uniqueName', () => {
  it('adds _2, _3, ... and compares without case (Windows and macOS folders ignore it)', () => {
    const taken = new Set(['chair', 'chair_2']);
    const isTaken = (s: string) => taken.has(s.toLowerCase());
    expect(uniqueName('Table', isTaken)).toBe('Table');
    expect(uniqueName('Chair', isTaken)).toBe('Chair_3');
  });

  it('stays within MAX_NAME_LENGTH', () => {
    const long = 'x'.repeat(MAX_NAME_LENGTH);
    const name = uniqueName(long, (s) => s === long);
    expect(name).toBe(`${'x'.repeat(MAX_NAME_LENGTH - 2)}_2`);
  });
});

describe('assertPlainName', () => {
  it.each(['../evil', '..', '.', 'a/b', 'a\\b', '/etc/passwd', 'C:\\Windows', '', '   '])('refuses %j', (name) => {
    expect(() => assertPlainName(name)).toThrow(ExportError);
  });

  it('accepts names that are only sanitised later', () => {
    for (const name of ['Chair..v2', 'a:b', 'CON', '...hidden name']) expect(() => assertPlainName(name)).not.toThrow();
  });
});

describe('presets', () => {
  const files = (...kinds: FileKind[]) => kinds.map((kind) => ({ kind, path: `/cache/${kind}` }));
  const chosen = (engine: keyof typeof PRESETS, kinds: FileKind[], glbOnly = false) =>
    selectFiles(PRESETS[engine], files(...kinds), glbOnly).chosen.map((f) => f.kind);

  it("writes one mesh format per export: the engine's default, textures beside", () => {
    const all: FileKind[] = ['glb', 'fbx', 'obj', 'mtl', 'usdz', 'texture', 'zip', 'mp4'];
    expect(chosen('unity', all)).toEqual(['fbx', 'texture']);
    expect(chosen('unreal', all)).toEqual(['fbx', 'texture']);
    expect(chosen('godot', all)).toEqual(['glb', 'texture']);
    expect(chosen('folder', all)).toEqual(['glb', 'texture', 'mp4']);
  });

  it('falls back to another mesh format only when the default one is missing', () => {
    expect(chosen('unity', ['obj', 'mtl', 'texture', 'usdz'])).toEqual(['obj', 'mtl', 'texture']);
    expect(chosen('godot', ['fbx', 'obj', 'mtl'])).toEqual(['fbx']);
    expect(chosen('godot', ['obj', 'mtl', 'texture'])).toEqual(['obj', 'mtl', 'texture']);
  });

  it('writes no other mesh format beside a transformed GLB, and says why', () => {
    const out = selectFiles(PRESETS.unity, files('glb', 'fbx', 'texture'), true);
    expect(out.chosen.map((f) => f.kind)).toEqual(['glb', 'texture']);
    expect(out.skipped).toEqual([
      { file: { kind: 'fbx', path: '/cache/fbx' }, why: expect.stringMatching(/transforms apply to the GLB only/) },
    ]);
    expect(selectFiles(PRESETS.godot, files('usdz'), false).skipped[0]!.why).toBe(
      "USDZ is for Apple's viewers, not an export format (GLB, FBX, OBJ are)",
    );
    expect(selectFiles(PRESETS.unity, files('glb', 'fbx', 'obj'), false).skipped[0]!.why).toBe(
      'Unity gets FBX here: one format per export, so the model is imported once',
    );
  });

  it('names files after the asset in the engine style, textures with their part, unique in the folder', () => {
    const taken = new Set<string>();
    const add = (name: string) => (taken.add(name.toLowerCase()), name);
    expect(add(fileName(PRESETS.unity, 'OakChair', '.glb', taken))).toBe('OakChair.glb');
    expect(add(fileName(PRESETS.unity, 'OakChair', '.png', taken, 'base color'))).toBe('OakChair_BaseColor.png');
    expect(add(fileName(PRESETS.unity, 'OakChair', '.png', taken, 'Base-Color'))).toBe('OakChair_BaseColor_2.png');
    expect(fileName(PRESETS.godot, 'oak_chair', '.png', taken, 'BaseColor')).toBe('oak_chair_base_color.png');
  });
});
