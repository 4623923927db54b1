// The motions the engine can animate from a text prompt, and the words that name them. A text is animated
// when it names at least one of them (in any inflection: walk, walks, walked, walking); the first one it
// names decides the clip's kind of motion.

export const MOTION_KINDS = {
  idle: ['idle', 'stand', 'breathe', 'wait', 'rest', 'pose', 'look', 'listen', 'think', 'stay'],
  walk: ['walk', 'stroll', 'march', 'step', 'pace', 'tiptoe', 'sneak', 'limp', 'wander', 'stride', 'strut', 'stagger', 'shuffle', 'patrol'],
  run: ['run', 'ran', 'jog', 'sprint', 'dash', 'rush', 'chase', 'flee', 'fled', 'race', 'charge', 'hurry'],
  jump: ['jump', 'hop', 'leap', 'leapt', 'bounce', 'skip', 'vault', 'spring', 'sprang'],
  gesture: ['wave', 'greet', 'salute', 'point', 'clap', 'cheer', 'celebrate', 'shrug', 'nod', 'bow', 'beckon', 'applaud', 'gesture', 'talk', 'laugh', 'cry'],
  dance: ['dance', 'twirl', 'spin', 'sway', 'groove', 'boogie', 'shimmy', 'pirouette', 'waltz'],
  fight: ['punch', 'kick', 'fight', 'fought', 'attack', 'box', 'strike', 'struck', 'swing', 'swung', 'slash', 'block', 'dodge', 'parry', 'stab', 'throw', 'threw', 'thrown', 'shoot', 'shot'],
  action: [
    'sit', 'sat', 'crouch', 'kneel', 'knelt', 'squat', 'crawl', 'climb', 'swim', 'swam', 'fly', 'flew', 'fall', 'fell', 'roll',
    'stretch', 'turn', 'catch', 'caught', 'lift', 'push', 'pull', 'dive', 'dove', 'stumble', 'shake', 'reach', 'pick', 'carry',
    'lie', 'exercise', 'yawn', 'flip', 'cartwheel', 'somersault',
  ],
} as const;

export type MotionKind = keyof typeof MOTION_KINDS;

/** The word forms a verb takes: walk, walks, walked, walking; dance, danced, dancing; hop, hopped, hopping. */
function formsOf(word: string): string[] {
  const forms = [word, `${word}s`, `${word}es`, `${word}ed`, `${word}d`, `${word}ing`, `${word}er`, `${word}ers`];
  if (word.endsWith('e')) forms.push(`${word.slice(0, -1)}ing`);
  if (/[^aeiou][aeiou][bcdfgklmnprstvz]$/.test(word)) forms.push(`${word}${word.at(-1)}ed`, `${word}${word.at(-1)}ing`, `${word}${word.at(-1)}er`);
  if (word.endsWith('y')) forms.push(`${word.slice(0, -1)}ies`, `${word.slice(0, -1)}ied`);
  return forms;
}

const KIND_OF_FORM = new Map<string, MotionKind>();
for (const [kind, words] of Object.entries(MOTION_KINDS) as [MotionKind, readonly string[]][]) {
  for (const word of words) for (const form of formsOf(word)) if (!KIND_OF_FORM.has(form)) KIND_OF_FORM.set(form, kind);
}

/** The kind of motion a text names first, or undefined when it names none the engine knows. */
export function motionKindOf(text: string): MotionKind | undefined {
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    const kind = KIND_OF_FORM.get(word);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** For messages: each kind with a few of its words. */
export function describeMotionKinds(): string {
  return (Object.entries(MOTION_KINDS) as [MotionKind, readonly string[]][])
    .map(([kind, words]) => `${kind} (${words.slice(0, 3).join(', ')}…)`)
    .join(', ');
}
