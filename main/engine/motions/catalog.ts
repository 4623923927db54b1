// Every motion the engine can play, the one home of their names, kinds and words: motion-capture clips of the CMU
// library (library.ts; the words come from each clip's CMU description and tags, plus synonyms), the procedural
// clips of character/pose.ts (idle, walk, run, jump, wave, sit) and the procedural gestures of gestures.ts. A
// prompt is matched to one of these by match.ts.
import * as z from 'zod';
import index from './data/cmu-index.json' with { type: 'json' };
import type { ClipKind } from '../motion-words.ts';
import type { GestureKind } from './gestures.ts';

export type MotionSource =
  | { type: 'mocap'; clip: string; from?: number; to?: number }
  | { type: 'procedural'; clip: ClipKind }
  | { type: 'gesture'; gesture: GestureKind };

export interface Motion {
  /** Unique, shown in "played as: …". */
  name: string;
  /** What kind of motion it is (walk, run, dance, fight…), for messages and tests. */
  kind: string;
  /** Words and phrases that name it (matched by their stems); the first is its own name. */
  words: string[];
  /** Words that make it closer, weaker than `words` (descriptions, related ideas). */
  related?: string[];
  /** Words of its CMU description and tags: weaker than `words`, stronger than `related`. */
  described?: string[];
  /** Styles the library lacks, for which this motion is the closest (a zombie walk: a walk); said in the answer. */
  closestFor?: string[];
  source: MotionSource;
}

const mocap = (clip: string, from?: number, to?: number): MotionSource => ({
  type: 'mocap',
  clip,
  ...(from === undefined ? {} : { from }),
  ...(to === undefined ? {} : { to }),
});
const gesture = (g: GestureKind): MotionSource => ({ type: 'gesture', gesture: g });
const procedural = (clip: ClipKind): MotionSource => ({ type: 'procedural', clip });

/** A motion from its words, related words and styles it is the closest for, each a comma-separated list. */
function motion(
  name: string,
  kind: string,
  source: MotionSource,
  words: string,
  related = '',
  closestFor = '',
): Motion {
  const list = (s: string) =>
    s
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean);
  return { name, kind, source, words: list(words), related: list(related), closestFor: list(closestFor) };
}

// biome-ignore format: one motion a line reads as a table
const CURATED: Motion[] = [
  // Motion capture (CMU), each named after its CMU description.
  motion('walk (CMU 07_01)', 'walk', mocap('cmu-07_01'), 'walk, step, pace, patrol, wander, stride, strut, go, forward', 'locomotion', 'zombie, shamble, drunk, stagger, lurch, wobble, robot, sexy, proud, sad, happy, angry, old, injured, wounded'),
  motion('slow walk (CMU 07_04)', 'walk', mocap('cmu-07_04'), 'slow walk, stroll, amble, saunter, tiptoe, sneak, creep forward, trudge', 'slow, slowly, tired, careful, quiet', 'limp, tired, elderly'),
  motion('brisk walk (CMU 07_12)', 'walk', mocap('cmu-07_12'), 'brisk walk, march, power walk, speed walk, hurry', 'brisk, fast, quick, soldier'),
  motion('walk on uneven terrain (CMU 03_01)', 'walk', mocap('cmu-03_01'), 'hike, uneven, terrain, rough ground, rocky', 'hill, mountain, trail, rocks, stairs'),
  motion('run/jog (CMU 02_03)', 'run', mocap('cmu-02_03'), 'run, ran, jog, sprint, dash, race, flee, fled, chase, rush', 'hurry, escape, athlete, marathon'),
  motion('jump, balance (CMU 02_04)', 'jump', mocap('cmu-02_04'), 'jump, balance, leap, leapt, spring', 'air, high'),
  motion('forward jumps (CMU 01_01)', 'jump', mocap('cmu-01_01', 0, 8), 'long jump, jump forward, forward jump, broad jump, bound, skip, parkour', 'playground, over'),
  motion('cartwheel-like start, pirouettes (CMU 05_06)', 'acrobatics', mocap('cmu-05_06'), 'cartwheel, acrobatics, acrobat, flip, backflip, somersault, tumble, handstand, gymnastics, frontflip, roll', 'stunt, trick, circus'),
  motion('climb, sit, dangle legs (CMU 01_08)', 'climb', mocap('cmu-01_08', 0, 9), 'climb, ladder, scale, clamber, ascend, mount', 'wall, rope, tree, up, playground'),
  motion('climb, jump down (CMU 01_14)', 'climb', mocap('cmu-01_14'), 'jump down, climb down, descend, dismount, drop down', 'ledge, off'),
  motion('punch/strike (CMU 02_05)', 'fight', mocap('cmu-02_05', 0, 8), 'punch, strike, hit, fight, box, boxing, jab, uppercut, hook, brawl, combat, attack, martial arts, karate, kung fu', 'enemy, fist, beat, smash, spar'),
  motion('swordplay (CMU 02_07)', 'sword', mocap('cmu-02_07', 0, 8), 'sword, swordplay, slash, fence, fencing, blade, katana, saber, sabre, parry, stab, lunge, thrust, swing a sword, knife, axe, duel, sword fight, fight with a sword', 'weapon, knight, samurai, pirate, ninja, attack, swing'),
  motion('bend over, scoop up, rise (CMU 02_06)', 'pick_up', mocap('cmu-02_06', 0, 6), 'pick up, pick, scoop, bend over, lift, grab, collect, gather, take', 'box, object, item, floor, ground, loot, carry, reach down'),
  motion('wash self (CMU 02_10)', 'everyday', mocap('cmu-02_10', 0, 8), 'wash, clean, scrub, shower, bathe, rub', 'soap, water, groom, brush'),
  motion('dance with pirouette (CMU 05_02)', 'dance', mocap('cmu-05_02'), 'dance, salsa, tango, waltz, ballet, disco, hip hop, breakdance, groove, boogie, twirl, pirouette, ballerina, dancer, party, samba, rumba, cha cha, macarena, twerk, jive, swing dance', 'music, rhythm, club, elegant, graceful, spin, turn'),
  motion('dance, arms held high (CMU 05_12)', 'dance', mocap('cmu-05_12'), 'arms held high, modern dance, contemporary dance, interpretive dance, sway', 'expressive'),
  motion('arabesque, bending back (CMU 05_04)', 'dance', mocap('cmu-05_04'), 'arabesque, bend back, back bend, yoga, pose', 'flexible, stretch'),
  motion('spin, pirouettes (CMU 05_11)', 'dance', mocap('cmu-05_11'), 'spin, turn around, whirl, rotate, pirouettes', 'circle, sidestep'),
  motion('basketball dribble (CMU 06_02)', 'sports', mocap('cmu-06_02'), 'dribble, basketball, bounce a ball, ball', 'sport, court, player, game'),
  motion('basketball dribble, shoot (CMU 06_15)', 'throw', mocap('cmu-06_15'), 'shoot, shot, basket, slam dunk, dunk', 'hoop, score'),
  motion('backward dribble (CMU 06_06)', 'walk', mocap('cmu-06_06'), 'backward, backwards, walk backwards, back up, retreat, reverse', 'away'),
  motion('sideways dribble (CMU 06_08)', 'walk', mocap('cmu-06_08'), 'sideways, sidestep, side step, strafe, shuffle', 'side, lateral'),
  // Procedural clips (character/pose.ts).
  motion('idle (procedural)', 'idle', procedural('idle'), 'idle, stand, breathe, wait, rest, listen, think, stay, still, relax, calm, nothing', 'guard, ready, bored, neutral'),
  motion('walk (procedural)', 'walk', procedural('walk'), 'walk in place, walk cycle, loop walk'),
  motion('run (procedural)', 'run', procedural('run'), 'run in place, run cycle, loop run'),
  motion('jump (procedural)', 'jump', procedural('jump'), 'hop, jump in place, bounce, vault', 'rabbit, bunny, excited'),
  motion('wave (procedural)', 'wave', procedural('wave'), 'wave, greet, hello, hi, goodbye, bye, beckon, hail, farewell, welcome', 'friend, hand'),
  motion('sit (procedural)', 'sit', procedural('sit'), 'sit, sat, seat, seated, chair, bench, stool, sofa, couch, sit down', 'desk, throne'),
  // Procedural gestures (gestures.ts).
  motion('clap (procedural)', 'clap', gesture('clap'), 'clap, applaud, applause, clapping', 'audience, bravo'),
  motion('bow (procedural)', 'bow', gesture('bow'), 'bow, curtsy, bend forward, kowtow', 'respect, thank, polite, audience, greet formally'),
  motion('salute (procedural)', 'salute', gesture('salute'), 'salute', 'soldier, military, officer, captain, army'),
  motion('point (procedural)', 'point', gesture('point'), 'point, indicate, show the way, aim a finger', 'direction, there, target, look'),
  motion('kick (procedural)', 'kick', gesture('kick'), 'kick, soccer, football, roundhouse, stomp', 'leg, foot, ball, door'),
  motion('crouch (procedural)', 'crouch', gesture('crouch'), 'crouch, squat, duck, kneel, hide, cover, take cover, stealth', 'low, down, sneak'),
  motion('crawl (procedural)', 'crawl', gesture('crawl'), 'crawl, creep, hands and knees, all fours, baby', 'floor, tunnel, vent'),
  motion('look around (procedural)', 'look', gesture('look_around'), 'look around, look, search, scan, glance, peek, watch, observe, lost, confused', 'around, curious, alert, suspicious'),
  motion('fall and get up (procedural)', 'fall', gesture('fall_get_up'), 'fall, fell, get up, trip, stumble, faint, collapse, die, death, knocked down, knock down, slip, dead', 'hurt, hit, down, ground, stand up'),
  motion('swim (procedural)', 'swim', gesture('swim'), 'swim, swam, swimming, freestyle, front crawl, paddle, breaststroke, backstroke, dive', 'water, pool, sea, ocean, float'),
  motion('cycling in the air (procedural)', 'cycle', gesture('cycle_air'), 'cycling, cycle, bicycle, bike, pedal, pedalling, pedaling, bicycle kick, cycling motion', 'back, air, legs, lie'),
  motion('cheer (procedural)', 'cheer', gesture('cheer'), 'cheer, celebrate, victory, hooray, hurray, win, triumph, arms up, hands up, raise arms, yay', 'happy, joy, goal, excited, party'),
  motion('nod (procedural)', 'nod', gesture('nod'), 'nod, agree, yes', 'approve, head'),
  motion('shake head (procedural)', 'shake_head', gesture('shake_head'), 'shake head, shake his head, shake her head, disagree, no', 'refuse, deny'),
  motion('idle, shifting weight (procedural)', 'idle', gesture('idle_shift'), 'shift weight, fidget, impatient, bored, idle variant, sway', 'waiting, restless'),
  motion('idle, stretching (procedural)', 'idle', gesture('idle_stretch'), 'stretch, yawn, wake up, warm up', 'tired, morning, sleepy'),
  motion('push-ups (procedural)', 'exercise', gesture('push_up'), 'push up, pushup, push-up, press up, exercise, workout, plank, train', 'gym, fitness, strong'),
  motion('throw (procedural)', 'throw', gesture('throw'), 'throw, toss, hurl, pitch, lob, fling, grenade, spear, javelin', 'ball, rock, stone, baseball'),
];

/** The kind of a motion-capture clip from its CMU tags (the first of these it has), else its first tag. */
const KIND_OF_TAG: Record<string, string> = {
  backwards: 'walk',
  sidestep: 'walk',
  walk: 'walk',
  run: 'run',
  jump: 'jump',
  climb: 'climb',
  dance: 'dance',
  punch: 'fight',
  sword: 'sword',
  pick_up: 'pick up',
  wash: 'everyday',
  basketball: 'sports',
};

/**
 * Every other shipped clip (cmu-index.json, from the library's index.json) as a motion of its own, named and
 * worded by its CMU description and tags: after the motions above, which win a tie.
 */
/** The shipped clips' index, checked as it is read (scripts/build-motions.ts writes it). */
const shipped = z
  .array(z.object({ id: z.string(), description: z.string(), tags: z.array(z.string()), seconds: z.number() }))
  .parse(index);

const wordsOf = (clip: (typeof shipped)[number]) => [
  ...clip.tags.map((t) => t.replace(/_/g, ' ')),
  ...clip.description.split(/[,/]| - /).map((p) => p.trim()),
];
const byId = new Map(shipped.map((clip) => [clip.id, clip]));
const described = new Set(CURATED.flatMap((m) => (m.source.type === 'mocap' ? [m.source.clip] : [])));
export const MOTIONS: Motion[] = [
  // A curated clip is also named by its own CMU description and tags.
  ...CURATED.map((m) => {
    const clip = m.source.type === 'mocap' ? byId.get(m.source.clip) : undefined;
    return clip === undefined ? m : { ...m, described: wordsOf(clip) };
  }),
  ...shipped
    .filter((clip) => !described.has(clip.id))
    .map((clip) => {
      const tag = Object.keys(KIND_OF_TAG).find((t) => clip.tags.includes(t));
      const kind = tag === undefined ? (clip.tags[0] ?? 'motion') : KIND_OF_TAG[tag]!;
      return {
        ...motion(`${clip.description} (CMU ${clip.id.slice(4)})`, kind, mocap(clip.id), ''),
        described: wordsOf(clip),
      };
    }),
];

export function motionNamed(name: string): Motion | undefined {
  return MOTIONS.find((m) => m.name === name);
}
