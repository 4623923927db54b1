// The matcher of free text to the closest motion (main/engine/motions/match.ts) and the shipped clips' data
// (main/engine/motions/data, made by scripts/build-motions.ts), without an engine: every motion of the catalogue is
// reachable by its own name, stems make inflections equal, the answer says what the library lacks, and the data
// decodes to unit orientations with the credit the CMU terms ask for, which the READMEs quote exactly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MOTIONS } from '../../main/engine/motions/catalog.ts';
import { MOCAP_CREDIT, mocapClip, mocapIndex } from '../../main/engine/motions/library.ts';
import { chooseMotion, isChoice, playedAs, stemOf } from '../../main/engine/motions/match.ts';
import { MOTION_DATA_CREDIT } from '../../shared/credits.ts';

const played = (text: string) => {
  const m = chooseMotion(text);
  if (!isChoice(m)) throw new Error(`refused: ${m.refused}`);
  return m;
};

describe('chooseMotion', () => {
  it('makes inflections of a word equal', () => {
    for (const [a, b] of [
      ['walk', 'walking'],
      ['dance', 'dancing'],
      ['hop', 'hopping'],
      ['run', 'ran'],
      ['hurry', 'hurries'],
      ['ups', 'up'],
    ])
      expect(stemOf(a!), `${a} ~ ${b}`).toBe(stemOf(b!));
  });

  it('reaches every motion of the catalogue by its name: it, or one of its kind', () => {
    const unreachable = MOTIONS.filter((m) => {
      const choice = chooseMotion(m.name.replace(/\(.*\)$/, ''));
      return !isChoice(choice) || choice.motion.kind !== m.kind;
    }).map((m) => m.name);
    expect(unreachable).toEqual([]);
  });

  it('says when it plays only the closest motion, and what the library lacks', () => {
    const zombie = played('zombie walk');
    expect(zombie.motion.kind).toBe('walk');
    expect(playedAs(zombie, 'zombie walk')).toMatch(
      /closest walk to "zombie walk": the library has no motion for "zombie"/,
    );
    expect(playedAs(played('walk forward'), 'walk forward')).toBe('played as: walk (CMU 07_01), kind walk');
  });

  it('takes the closer of two motions a prompt names words of', () => {
    expect(played('pick up a box').motion.kind).toBe('pick_up'); // not a boxing punch
    expect(played('fight with a sword').motion.kind).toBe('sword');
    expect(played('walk slowly').motion.name).toMatch(/slow walk/);
    expect(played('the ballerina turns').motion.kind).toBe('dance');
    expect(played('grand jete').motion.source).toMatchObject({ type: 'mocap' });
  });

  it('refuses texts with no motion word, saying why', () => {
    expect(chooseMotion('qwzx blorp')).toEqual({
      refused: 'none of its words (qwzx, blorp) names or relates to a motion the local engine has',
    });
    expect(chooseMotion('...')).toMatchObject({ refused: expect.stringMatching(/no words/) });
    expect(chooseMotion('the')).toMatchObject({ refused: expect.stringMatching(/no words/) });
  });
});

describe('the shipped motion-capture clips', () => {
  it('are the 61 CMU clips with their descriptions, each frame a unit orientation per joint', () => {
    const index = mocapIndex();
    expect(index).toHaveLength(61);
    expect(index.find((c) => c.id === 'cmu-02_07')).toMatchObject({ description: 'swordplay' });
    const walk = mocapClip('cmu-07_01');
    expect(walk.fps).toBe(30);
    expect(walk.joints).toContain('L_Knee');
    for (let f = 0; f < walk.frames; f += 7)
      for (let j = 0; j < walk.joints.length; j++) expect(Math.hypot(...walk.frame(f, j))).toBeCloseTo(1, 5);
    // A walk travels forward (+Z in the clip's canonical space), several leg lengths in 2.6 s.
    const [x, z] = walk.root(walk.frames - 1);
    expect(z).toBeGreaterThan(3);
    expect(Math.abs(x)).toBeLessThan(z / 4);
  });

  it('carry the credit the CMU terms ask for, which both READMEs quote exactly', () => {
    expect(MOCAP_CREDIT).toBe(MOTION_DATA_CREDIT);
    for (const readme of ['README.md', 'main/engine/README.md'])
      expect(readFileSync(readme, 'utf8'), readme).toContain(MOTION_DATA_CREDIT);
  });
});
