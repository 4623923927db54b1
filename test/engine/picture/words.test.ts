// Reading a text-to-image prompt into a scene: shapes with their colours, counts, sizes and places, the ground and the light.
import { describe, expect, it } from 'vitest';
import { COLOURS, GROUND_COLOURS, readPrompt } from '../../../main/engine/picture/words.ts';

describe('prompt words', () => {
  it('reads shapes with the colour, size and count before them, the place after them, the ground and the light', () => {
    const scene = readPrompt('Two small red balls on the left and a tall blue tower on snow at night');
    expect(scene.objects).toEqual([
      { shape: 'ball', colour: COLOURS.red, named: true, scale: 0.7, place: 'left' },
      { shape: 'ball', colour: COLOURS.red, named: true, scale: 0.7, place: 'left' },
      { shape: 'tower', colour: COLOURS.blue, named: true, scale: 1.3 },
    ]);
    expect(scene.ground).toEqual({ kind: 'snow', colour: GROUND_COLOURS.snow });
    expect(scene.light).toBe('night');
  });

  it('a coloured ground, a shape in its own colour, daylight by default, other words kept to vary the picture', () => {
    const scene = readPrompt('a pine tree on purple grass, dreamy');
    expect(scene.objects.map((o) => [o.shape, o.named])).toEqual([
      ['cone', false],
      ['tree', false],
    ]);
    expect(scene.ground).toEqual({ kind: 'grass', colour: COLOURS.purple });
    expect(scene.light).toBe('day');
    expect(scene.rest).toEqual(['dreamy']);
  });

  it('a colour with no shape after it colours the subject', () => {
    expect(readPrompt('a car, red').objects[0]).toMatchObject({ shape: 'car', colour: COLOURS.red, named: true });
    expect(readPrompt('something green').loneColour).toEqual(COLOURS.green);
  });
});
