// File and folder names that are safe on Windows, macOS and Linux and follow an engine's convention.

/**
 * `pascal` (Unity, Unreal: `MyChair`) and `snake` (Godot: `my_chair`) keep ASCII letters and digits only,
 * after stripping accents, so names survive every tool chain and version control system;
 * `keep` (plain folder) keeps the text, Unicode included, and replaces what a file system refuses and
 * spaces with `_` (an OBJ cannot name an MTL, nor an MTL a texture, whose name has a space); every style drops
 * bidirectional controls and other invisible format characters (INVISIBLE).
 */
export type NameStyle = 'pascal' | 'snake' | 'keep';

/** Leaves room for suffixes (`_2`, `_BaseColor.png`, `.assetstudio.json`) within Windows' 260-character paths. */
export const MAX_NAME_LENGTH = 64;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches: Windows refuses them in a file name
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
/**
 * Invisible characters that change how a name reads, not what it says: bidirectional controls (U+202E shows
 * `chair\u202Egpj.exe` as `chairexe.jpg`), zero-width and other format characters (\p{Cf}), line and paragraph
 * separators. A file name keeps none of them.
 */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/gu;
/** Windows refuses these as a name, with any extension: `CON.glb` too. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const FALLBACK: Record<NameStyle, string> = { pascal: 'Asset', snake: 'asset', keep: 'Asset' };

/** `raw` made into a safe name in the given style; never empty, never reserved, at most MAX_NAME_LENGTH long. */
export function styleName(raw: string, style: NameStyle): string {
  const styled = style === 'keep' ? keepName(raw) : conventionName(raw, style);
  const name = trimEnd(truncate(styled, MAX_NAME_LENGTH)) || FALLBACK[style];
  return RESERVED.test(name.split('.')[0]!) ? name.replace(/^[^.]*/, (stem) => `${stem}_`) : name;
}

/** `name`, or `name_2`, `name_3`, ... : the first that `isTaken` refuses, kept within MAX_NAME_LENGTH. */
export function uniqueName(name: string, isTaken: (candidate: string) => boolean): string {
  if (!isTaken(name)) return name;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = trimEnd(truncate(name, MAX_NAME_LENGTH - suffix.length)) + suffix;
    if (!isTaken(candidate)) return candidate;
  }
}

function conventionName(raw: string, style: 'pascal' | 'snake'): string {
  const words = raw
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents: é -> e
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2') // myChair -> my Chair
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') // FBXModel -> FBX Model
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return style === 'pascal'
    ? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
    : words.map((w) => w.toLowerCase()).join('_');
}

/** Leading dots would hide the file (and could clash with the export's own hidden staging folders). */
function keepName(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .trim()
    .replace(FORBIDDEN, '_')
    .replace(/\s+/g, '_')
    .replace(/^[._]+/, '');
}

/** Windows drops trailing dots and spaces; a trailing separator is just noise. */
function trimEnd(name: string): string {
  return name.replace(/[. _]+$/, '');
}

/** Cuts at a code point, never inside a surrogate pair. */
function truncate(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join('');
}
