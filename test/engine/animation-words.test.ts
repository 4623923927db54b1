// Prompts to clips (main/engine/motion-words.ts): a prompt names one of the library's motions by a word or a
// synonym in any inflection; speed words, a jog or a sprint, a hop and a side shape the clip; other motions
// are not the local engine's to animate.
import { describe, expect, it } from 'vitest';
import { motionOfText } from '../../main/engine/motion-words.ts';

describe('motionOfText', () => {
  it.each([
    ['walk forward', 'walk'],
    ['he strolls in the park', 'walk'],
    ['jogging', 'run'],
    ['Sprint!', 'run'],
    ['hop on one spot', 'jump'],
    ['leaps over a gap', 'jump'],
    ['wave with the left hand', 'wave'],
    ['greets a friend', 'wave'],
    ['sit down on a chair', 'sit'],
    ['seated', 'sit'],
    ['stands idle, breathing', 'idle'],
  ])('reads "%s" as %s', (text, clip) => {
    expect(motionOfText(text)?.clip).toBe(clip);
  });

  it('takes the speed from the words: a jog is a slower run than a sprint, slowly slows a walk, quickly speeds it', () => {
    expect(motionOfText('jog')!.speed).toBeLessThan(motionOfText('run')!.speed);
    expect(motionOfText('sprint')!.speed).toBeGreaterThan(motionOfText('run')!.speed);
    expect(motionOfText('slowly walk')!.speed).toBeLessThan(motionOfText('walk')!.speed);
    expect(motionOfText('walk quickly')!.speed).toBeGreaterThan(motionOfText('walk')!.speed);
    expect(motionOfText('stroll')!.speed).toBeLessThan(1);
    expect(motionOfText('hop')!.amplitude).toBeLessThan(motionOfText('jump')!.amplitude);
  });

  it('takes the hand of a wave from the words', () => {
    expect(motionOfText('wave with the left hand')!.side).toBe('left');
    expect(motionOfText('wave your right arm')!.side).toBe('right');
    expect(motionOfText('wave with both hands')!.side).toBe('both');
    expect(motionOfText('wave')!.side).toBe('right');
  });

  it.each(['do a backflip', 'dance the tango', 'qzxv blorp', ''])('names no motion of the library: "%s"', (text) => {
    expect(motionOfText(text)).toBeUndefined();
  });
});
