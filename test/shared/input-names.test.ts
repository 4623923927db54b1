// What a file offered as an input is by its name (shared/input-names.ts), for main's inspection and the batch dialog.
import { describe, expect, it } from 'vitest';
import { inputKindOfName } from '../../shared/input-names.ts';
import { expectedKind } from '../../main/files/inspect.ts';
import { droppedKind } from '../../renderer/src/dropped-kind.ts';

describe('an input by its name', () => {
  it.each([
    ['chair.PNG', 'image', 'image', 'image'],
    ['fox.jpeg', 'image', 'image', 'image'],
    ['/home/me/pics/robot.webp', 'image', 'image', 'image'],
    ['C:\\models\\Male_Casual.fbx', 'fbx', 'fbx', 'mesh'],
    ['kit.ZIP', 'zip', 'zip', 'mesh'],
    ['notes.txt', undefined, 'any', 'other'],
    ['.png', undefined, 'any', 'other'], // a leading dot is no extension (as path.extname)
    ['pictures.png/readme', undefined, 'any', 'other'],
  ])('%s: %s (inspection expects %s, a drop becomes %s)', (name, kind, expected, dropped) => {
    expect(inputKindOfName(name)).toBe(kind);
    expect(expectedKind(name)).toBe(expected);
    expect(droppedKind({ name })).toBe(dropped);
  });
});
