// The one error a file inspection throws: which file, why it cannot be sent, and what to do.
// Its codes are listed in shared/errors.ts (a bad input file is rejected before anything is sent).
import { AppError, type InspectionCode } from '../../shared/errors.ts';

export type { InspectionCode } from '../../shared/errors.ts';

export class InspectionError extends AppError<InspectionCode> {
  /** The path as given. */
  readonly file: string;
  /** Why it cannot be sent, e.g. `is not an FBX file (it starts like a PNG image)`. */
  readonly reason: string;
  /** What to do about it. */
  readonly action: string;

  constructor(f: { code: InspectionCode; file: string; reason: string; action: string }) {
    super(f.code, `${f.file} ${f.reason}. ${f.action}`);
    this.file = f.file;
    this.reason = f.reason;
    this.action = f.action;
  }
}

/** What a file was expected to be, from its name (or `any` when its name says nothing). */
export type Expected = 'fbx' | 'zip' | 'image' | 'any';

const EXPECTED: Record<Expected, { what: string; action: string }> = {
  fbx: { what: 'an FBX file', action: 'Export it again from your 3D tool as FBX binary or ASCII.' },
  zip: {
    what: 'a zip archive',
    action: 'Create the zip again (e.g. "Compress" in your file manager) with the FBX files in it.',
  },
  image: { what: 'a PNG, JPEG or WebP image', action: 'Save or convert it as PNG or JPEG and try again.' },
  any: {
    what: 'a file Asset Studio can send',
    action: 'Choose an FBX file, a zip of FBX files, or a PNG, JPEG or WebP image.',
  },
};

/** `x.fbx is not an FBX file (it starts like a PNG image). Export it again …` */
export function wrongFormat(file: string, expected: Expected, found: string): InspectionError {
  const e = EXPECTED[expected];
  return new InspectionError({
    code: 'wrong-format',
    file,
    reason: `is not ${e.what} (it starts like ${found})`,
    action: e.action,
  });
}

/** The file is cut off or its structure is broken. */
export function damaged(file: string, why: string, action: string): InspectionError {
  return new InspectionError({ code: 'truncated', file, reason: `is cut off or damaged: ${why}`, action });
}
