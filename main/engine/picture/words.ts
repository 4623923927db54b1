// The words a text-to-image prompt is drawn from: colours, a small vocabulary of shapes, layout and light.
// The local engine draws a geometric picture of what it recognises; other words only vary the picture.
export type Rgb = [number, number, number];
export type ShapeKind = 'ball' | 'box' | 'house' | 'tree' | 'mountain' | 'tower' | 'car' | 'star' | 'flower' | 'cone';
export type GroundKind = 'grass' | 'sand' | 'snow' | 'water' | 'road' | 'floor';
export type Light = 'day' | 'sunset' | 'sunrise' | 'night' | 'overcast';

export const COLOURS: Record<string, Rgb> = {
  red: [0.85, 0.12, 0.1],
  crimson: [0.7, 0.05, 0.15],
  green: [0.2, 0.65, 0.2],
  blue: [0.15, 0.3, 0.85],
  navy: [0.05, 0.1, 0.4],
  yellow: [0.95, 0.85, 0.15],
  gold: [0.85, 0.68, 0.2],
  golden: [0.85, 0.68, 0.2],
  orange: [0.95, 0.5, 0.1],
  purple: [0.5, 0.2, 0.7],
  violet: [0.55, 0.3, 0.8],
  pink: [0.95, 0.5, 0.7],
  brown: [0.45, 0.28, 0.12],
  wooden: [0.55, 0.36, 0.18],
  black: [0.06, 0.06, 0.07],
  white: [0.95, 0.95, 0.95],
  grey: [0.5, 0.5, 0.52],
  gray: [0.5, 0.5, 0.52],
  silver: [0.75, 0.76, 0.8],
  cyan: [0.1, 0.8, 0.85],
  teal: [0.1, 0.5, 0.5],
};

const SHAPES: Record<string, ShapeKind> = {
  ball: 'ball',
  sphere: 'ball',
  orb: 'ball',
  apple: 'ball',
  balloon: 'ball',
  planet: 'ball',
  globe: 'ball',
  box: 'box',
  cube: 'box',
  crate: 'box',
  chest: 'box',
  block: 'box',
  table: 'box',
  house: 'house',
  hut: 'house',
  cabin: 'house',
  barn: 'house',
  cottage: 'house',
  tree: 'tree',
  trees: 'tree',
  forest: 'tree',
  oak: 'tree',
  pine: 'cone',
  mountain: 'mountain',
  mountains: 'mountain',
  hill: 'mountain',
  hills: 'mountain',
  pyramid: 'mountain',
  tower: 'tower',
  castle: 'tower',
  lighthouse: 'tower',
  skyscraper: 'tower',
  pillar: 'tower',
  building: 'tower',
  car: 'car',
  truck: 'car',
  bus: 'car',
  van: 'car',
  star: 'star',
  stars: 'star',
  flower: 'flower',
  flowers: 'flower',
  rose: 'flower',
  cone: 'cone',
  tent: 'cone',
  spire: 'cone',
};

const GROUNDS: Record<string, GroundKind> = {
  grass: 'grass',
  meadow: 'grass',
  field: 'grass',
  lawn: 'grass',
  park: 'grass',
  sand: 'sand',
  beach: 'sand',
  desert: 'sand',
  dune: 'sand',
  dunes: 'sand',
  snow: 'snow',
  ice: 'snow',
  winter: 'snow',
  water: 'water',
  sea: 'water',
  ocean: 'water',
  lake: 'water',
  river: 'water',
  road: 'road',
  street: 'road',
  city: 'road',
  floor: 'floor',
  room: 'floor',
  table: 'floor',
};

const LIGHTS: Record<string, Light> = {
  sunset: 'sunset',
  dusk: 'sunset',
  evening: 'sunset',
  twilight: 'sunset',
  sunrise: 'sunrise',
  dawn: 'sunrise',
  morning: 'sunrise',
  night: 'night',
  midnight: 'night',
  moonlight: 'night',
  moonlit: 'night',
  dark: 'night',
  noon: 'day',
  day: 'day',
  sunny: 'day',
  bright: 'day',
  daylight: 'day',
  overcast: 'overcast',
  cloudy: 'overcast',
  foggy: 'overcast',
  misty: 'overcast',
  rainy: 'overcast',
  gloomy: 'overcast',
};

const SIZES: Record<string, number> = {
  tiny: 0.5,
  small: 0.7,
  little: 0.7,
  big: 1.35,
  large: 1.35,
  huge: 1.6,
  giant: 1.7,
  tall: 1.3,
};
const COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, several: 3, many: 5, some: 3 };
type Place = 'left' | 'right' | 'center';
const PLACES: Record<string, Place> = {
  left: 'left',
  right: 'right',
  center: 'center',
  centre: 'center',
  middle: 'center',
};

/** The colour an object has when the prompt names none. */
const NATURAL: Partial<Record<ShapeKind, Rgb>> = {
  tree: [0.2, 0.55, 0.2],
  mountain: [0.45, 0.45, 0.5],
  star: [0.98, 0.9, 0.3],
  house: [0.8, 0.7, 0.55],
  cone: [0.15, 0.45, 0.2],
};
export const GROUND_COLOURS: Record<GroundKind, Rgb> = {
  grass: [0.25, 0.6, 0.2],
  sand: [0.9, 0.8, 0.55],
  snow: [0.95, 0.96, 1],
  water: [0.15, 0.4, 0.7],
  road: [0.3, 0.3, 0.32],
  floor: [0.6, 0.5, 0.4],
};

export interface SceneObject {
  shape: ShapeKind;
  colour: Rgb;
  /** Whether the prompt named the colour (else it is the shape's own or one drawn from the prompt). */
  named: boolean;
  scale: number;
  place?: Place;
}

export interface Scene {
  objects: SceneObject[];
  ground?: { kind: GroundKind; colour: Rgb };
  light: Light;
  /** Words that were not recognised: they vary the picture (its hues and placement) so two prompts differ. */
  rest: string[];
  /** A colour named with no shape to wear it ("something blue"): it colours the picture's subject. */
  loneColour?: Rgb;
}

/** Reads a prompt into a scene. Deterministic: the same prompt gives the same scene. */
export function readPrompt(prompt: string): Scene {
  const words = (prompt.toLowerCase().match(/[a-z]+/g) ?? []).map(singular);
  const objects: SceneObject[] = [];
  let ground: Scene['ground'];
  let light: Light | undefined;
  let colour: Rgb | undefined;
  let scale = 1;
  let count = 1;
  let place: Place | undefined;
  const rest: string[] = [];
  /** The objects of the last shape word ("two trees" is two): a place word after them places them all. */
  let group: SceneObject[] = [];
  for (const word of words) {
    if (Object.hasOwn(COLOURS, word)) {
      colour = COLOURS[word];
    } else if (Object.hasOwn(SIZES, word)) {
      scale = SIZES[word]!;
    } else if (Object.hasOwn(COUNTS, word)) {
      count = COUNTS[word]!;
    } else if (Object.hasOwn(PLACES, word)) {
      // "a ball on the left" places the ball; "on the left a ball" the next one
      if (group.length > 0 && group[0]!.place === undefined) for (const object of group) object.place = PLACES[word];
      else place = PLACES[word];
    } else if (Object.hasOwn(SHAPES, word) && !(Object.hasOwn(GROUNDS, word) && objects.length > 0)) {
      const shape = SHAPES[word]!;
      group = [];
      for (let i = 0; i < count && objects.length < 8; i++) {
        group.push({
          shape,
          colour: colour ?? NATURAL[shape] ?? [0.7, 0.7, 0.7],
          named: colour !== undefined,
          scale,
          ...(place && { place }),
        });
      }
      objects.push(...group);
      colour = undefined;
      scale = 1;
      count = 1;
      place = undefined;
    } else if (Object.hasOwn(GROUNDS, word)) {
      const kind = GROUNDS[word]!;
      ground = { kind, colour: colour ?? GROUND_COLOURS[kind] };
      colour = undefined;
    } else if (Object.hasOwn(LIGHTS, word)) {
      light ??= LIGHTS[word];
    } else if (word.length > 2 && !STOP_WORDS.has(word)) {
      rest.push(word);
    }
  }
  // A colour named with no shape after it ("something blue") colours the last object.
  if (colour !== undefined && objects.length > 0 && !objects.at(-1)!.named)
    Object.assign(objects.at(-1)!, { colour, named: true });
  return {
    objects,
    ...(ground && { ground }),
    light: light ?? 'day',
    rest,
    ...(colour !== undefined && objects.length === 0 && { loneColour: colour }),
  };
}

/** "balls" is "ball", "boxes" is "box": a plural of a known word is that word. */
function singular(word: string): string {
  const known = (w: string) => Object.hasOwn(SHAPES, w) || Object.hasOwn(GROUNDS, w) || Object.hasOwn(COLOURS, w);
  if (known(word) || !word.endsWith('s')) return word;
  if (known(word.slice(0, -1))) return word.slice(0, -1);
  if (word.endsWith('es') && known(word.slice(0, -2))) return word.slice(0, -2);
  return word;
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'with',
  'under',
  'over',
  'near',
  'next',
  'from',
  'into',
  'onto',
  'that',
  'this',
  'its',
  'their',
  'front',
  'behind',
  'above',
  'below',
  'top',
  'side',
]);
