// Free text to the closest motion of the catalogue (catalog.ts), by meaning, with no network and no model: the
// prompt's words are reduced to their stems and compared with each motion's words (its name, synonyms and, for
// motion capture, its CMU description and tags) and related words. A phrase of the motion's found in order counts
// most, its words found anywhere less, a related word least; the motion with the highest score is played, the
// first in the catalogue on a tie. A text none of whose words relates to any motion is refused, with why.
import { type MotionSpec, motionOfText } from '../motion-words.ts';
import { type Motion, MOTIONS } from './catalog.ts';

const IRREGULAR: Record<string, string> = {
  ran: 'run',
  fell: 'fall',
  fallen: 'fall',
  swam: 'swim',
  sat: 'sit',
  leapt: 'leap',
  fled: 'flee',
  threw: 'throw',
  thrown: 'throw',
  took: 'take',
  went: 'go',
  dove: 'dive',
  rode: 'ride',
  got: 'get',
  fought: 'fight',
  struck: 'strike',
  lay: 'lie',
  lying: 'lie',
  dying: 'die',
};

const STOP = new Set(
  'a an the and or of to in on at by for from into onto with his her their its my your our is are was be been it they he she i you we this that these those person man woman character someone somebody guy girl boy player hero then while very some do does doing did make makes making like as just please motion animation animate movement move moves'.split(
    ' ',
  ),
);

/** Words that shape a motion (motion-words.ts: side, speed) rather than name one: never reported as unknown. */
const MODIFIERS = new Set(
  'left right both hand hands arm arms leg legs slow slowly quick quickly fast fastly gently softly briskly carefully nervously happily sadly angrily again around forward here there away behind over under'.split(
    ' ',
  ),
);

/** A word's stem: the same for walk, walks, walked, walking; dance, dancing; hop, hopping; hurry, hurries. */
export function stemOf(word: string): string {
  let w = IRREGULAR[word] ?? word;
  if (w.length === 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1); // ups, ons
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ings', 'ing', 'edly', 'ed', 'ers', 'er', 'es', 's', 'ly', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (/([bdfgklmnprtz])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

const tokens = (text: string) =>
  text
    .toLowerCase()
    .replace(/-/g, ' ')
    .split(/[^a-z]+/)
    .filter(Boolean);

interface Indexed {
  motion: Motion;
  phrases: { stems: string[]; weight: number; lacking?: boolean }[];
}

const INDEX: Indexed[] = MOTIONS.map((motion) => ({
  motion,
  phrases: [
    ...motion.words.map((w) => ({ stems: tokens(w).map(stemOf), weight: 3 })),
    ...(motion.described ?? []).map((w) => ({ stems: tokens(w).map(stemOf), weight: 2 })),
    ...(motion.related ?? []).map((w) => ({ stems: tokens(w).map(stemOf), weight: 1 })),
    ...(motion.closestFor ?? []).map((w) => ({ stems: tokens(w).map(stemOf), weight: 1, lacking: true })),
  ],
}));

/** The stems that count for matching: all but the small words. */
const KNOWN = new Set(INDEX.flatMap((m) => m.phrases.flatMap((p) => p.stems)));

export interface MotionChoice {
  motion: Motion;
  /** Speed, size and side from the prompt's own words (motion-words.ts). */
  spec: Pick<MotionSpec, 'speed' | 'amplitude' | 'side'>;
  /** The prompt's words that no motion knows (e.g. "zombie" in "zombie walk"): the motion is the closest, not exact. */
  unknown: string[];
}

export type MotionMatch = MotionChoice | { refused: string };

/** The closest motion to `text`, or why there is none. */
export function chooseMotion(text: string): MotionMatch {
  const words = tokens(text).filter((w) => !STOP.has(w) && w.length > 1);
  if (words.length === 0)
    return {
      refused: 'it has no words that describe a motion (e.g. "walk forward", "dance", "wave with the left hand")',
    };
  const stems = words.map(stemOf);
  let best: { entry: Indexed; score: number; used: Map<number, number>; lacking: Set<number> } | undefined;
  for (const entry of INDEX) {
    const used = new Map<number, number>(); // prompt word → best weight it earned
    const lacking = new Set<number>(); // prompt words this motion is only the closest for
    for (const phrase of entry.phrases) {
      if (phrase.lacking) {
        for (const [i, s] of stems.entries()) if (phrase.stems.includes(s)) lacking.add(i);
        if (phrase.stems.length > 1 || !stems.includes(phrase.stems[0]!)) continue;
      }
      const n = phrase.stems.length;
      // In order, one after another: full weight per word.
      for (let i = 0; i + n <= stems.length; i++) {
        if (phrase.stems.every((s, k) => stems[i + k] === s))
          for (let k = 0; k < n; k++) used.set(i + k, Math.max(used.get(i + k) ?? 0, phrase.weight));
      }
      // A phrase of several words all found, anywhere: two thirds of the weight.
      if (n > 1 && phrase.stems.every((s) => stems.includes(s)))
        for (const s of phrase.stems) {
          const i = stems.indexOf(s);
          used.set(i, Math.max(used.get(i) ?? 0, (phrase.weight * 2) / 3));
        }
    }
    const score = [...used.values()].reduce((a, b) => a + b, 0);
    if (score > 0 && (best === undefined || score > best.score)) best = { entry, score, used, lacking };
  }
  if (best === undefined) {
    return {
      refused: `none of its words (${words.join(', ')}) names or relates to a motion the local engine has`,
    };
  }
  const spec = motionOfText(text);
  return {
    motion: best.entry.motion,
    spec: { speed: spec?.speed ?? 1, amplitude: spec?.amplitude ?? 1, side: spec?.side ?? sideOf(words) },
    unknown: words.filter(
      (w, i) => best.lacking.has(i) || (!best.used.has(i) && !KNOWN.has(stems[i]!) && !MODIFIERS.has(w)),
    ),
  };
}

function sideOf(words: string[]): MotionSpec['side'] {
  const left = words.includes('left');
  const right = words.includes('right');
  return words.includes('both') || (left && right) ? 'both' : left ? 'left' : 'right';
}

export const isChoice = (m: MotionMatch): m is MotionChoice => 'motion' in m;

/**
 * What a prompt's answer says it plays: `played as: <motion>, kind <kind>`, and, when the prompt asks for more than
 * the motion is (a "zombie walk" played as a walk), that it is the closest one and which words the library lacks.
 */
export function playedAs(choice: MotionChoice, text: string): string {
  const { motion, unknown } = choice;
  const asked = text.trim().length > 60 ? `${text.trim().slice(0, 57)}…` : text.trim();
  const note =
    unknown.length > 0
      ? `; the closest ${kindWord(motion)} to "${asked}": the library has no motion for "${unknown.join(' ')}"`
      : '';
  return `played as: ${motion.name}, kind ${kindWord(motion)}${note}`;
}

const kindWord = (m: Motion) => m.kind.replace(/_/g, ' ');

/** For messages: the kinds of motion the engine plays. */
export function describeCatalogue(): string {
  return [...new Set(MOTIONS.map((m) => kindWord(m)))].join(', ');
}
