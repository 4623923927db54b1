// The procedural clips of the animation library (idle, walk, run, jump, wave, sit) and the words that name them:
// the library's labels are played by them, and every prompt's speed, size and side are read here (the motion a
// prompt plays is the closest of motions/catalog.ts, by motions/match.ts). A text names one of these clips by a
// word or a synonym in any inflection (walk, walks, walked, walking; jog, jogging); the first one it names decides the clip.
// Speed words (slowly, quickly; a jog is a slow run, a sprint a fast one, a hop a small jump) and a side
// (the left hand, the right arm) shape it.

export type ClipKind = 'idle' | 'walk' | 'run' | 'jump' | 'wave' | 'sit';

/** What a prompt asks for: the clip, how fast (1 normal), how big (1 normal) and, for a wave, with which hand(s). */
export interface MotionSpec {
  clip: ClipKind;
  speed: number;
  amplitude: number;
  side: 'left' | 'right' | 'both';
}

type Word = [word: string, speed?: number, amplitude?: number];

export const MOTION_WORDS: Record<ClipKind, Word[]> = {
  idle: [
    ['idle'],
    ['stand'],
    ['breathe'],
    ['wait'],
    ['rest'],
    ['pose'],
    ['listen'],
    ['think'],
    ['stay'],
    ['still'],
    ['relax', 0.8],
  ],
  walk: [
    ['walk'],
    ['stroll', 0.7],
    ['march', 1.1, 1.2],
    ['step'],
    ['pace'],
    ['tiptoe', 0.6, 0.6],
    ['sneak', 0.6, 0.7],
    ['wander', 0.75],
    ['stride', 1, 1.2],
    ['strut', 1, 1.1],
    ['patrol'],
    ['amble', 0.7],
    ['saunter', 0.7],
    ['limp', 0.6, 0.7],
    ['trudge', 0.65],
  ],
  run: [
    ['run'],
    ['ran'],
    ['jog', 0.75, 0.8],
    ['sprint', 1.35, 1.2],
    ['dash', 1.3, 1.15],
    ['rush', 1.2],
    ['chase', 1.15],
    ['flee', 1.25],
    ['fled', 1.25],
    ['race', 1.3, 1.15],
    ['hurry', 1.15],
  ],
  jump: [
    ['jump'],
    ['hop', 1.3, 0.5],
    ['leap', 0.9, 1.3],
    ['leapt', 0.9, 1.3],
    ['bounce', 1.2, 0.6],
    ['vault', 1, 1.2],
    ['spring'],
  ],
  wave: [['wave'], ['greet'], ['hello'], ['hi'], ['goodbye'], ['bye'], ['salute', 0.8], ['beckon', 0.8], ['hail']],
  sit: [['sit'], ['sat'], ['seat'], ['seated'], ['chair'], ['bench'], ['stool'], ['sofa'], ['couch']],
};

const SLOW = ['slow', 'slowly', 'gently', 'leisurely', 'lazily', 'carefully', 'calmly', 'tired', 'tiredly'];
const FAST = [
  'fast',
  'quick',
  'quickly',
  'rapid',
  'rapidly',
  'hurriedly',
  'briskly',
  'swiftly',
  'energetic',
  'energetically',
];

/** The word forms a verb takes: walk, walks, walked, walking; dance, danced, dancing; hop, hopped, hopping. */
function formsOf(word: string): string[] {
  const forms = [word, `${word}s`, `${word}es`, `${word}ed`, `${word}d`, `${word}ing`, `${word}er`, `${word}ers`];
  if (word.endsWith('e')) forms.push(`${word.slice(0, -1)}ing`);
  if (/[^aeiou][aeiou][bcdfgklmnprstvz]$/.test(word))
    forms.push(`${word}${word.at(-1)}ed`, `${word}${word.at(-1)}ing`, `${word}${word.at(-1)}er`);
  if (word.endsWith('y')) forms.push(`${word.slice(0, -1)}ies`, `${word.slice(0, -1)}ied`);
  return forms;
}

const WORD_OF_FORM = new Map<string, { clip: ClipKind; speed: number; amplitude: number }>();
for (const [clip, words] of Object.entries(MOTION_WORDS) as [ClipKind, Word[]][]) {
  for (const [word, speed = 1, amplitude = 1] of words) {
    for (const form of formsOf(word)) if (!WORD_OF_FORM.has(form)) WORD_OF_FORM.set(form, { clip, speed, amplitude });
  }
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

/** What a text asks for, or undefined when it names no motion of the library. */
export function motionOfText(text: string): MotionSpec | undefined {
  const words = wordsOf(text);
  const first = words.map((w) => WORD_OF_FORM.get(w)).find((x) => x !== undefined);
  if (first === undefined) return undefined;
  let { speed } = first;
  if (words.some((w) => SLOW.includes(w))) speed *= 0.65;
  if (words.some((w) => FAST.includes(w))) speed *= 1.35;
  const left = words.includes('left');
  const right = words.includes('right');
  const both = words.includes('both') || words.includes('hands') || words.includes('arms') || (left && right);
  return { clip: first.clip, speed, amplitude: first.amplitude, side: both ? 'both' : left ? 'left' : 'right' };
}

/** The clip a text names first, or undefined. */
export function motionKindOf(text: string): ClipKind | undefined {
  return motionOfText(text)?.clip;
}
