// Limits applied to local files before they are sent: sizes, zip contents (against zip bombs) and images.
import * as z from 'zod';
import { describeIssues, issuesToText } from '../../shared/contract/issues.ts';

const GiB = 2 ** 30;
const MiB = 2 ** 20;

const count = (what: string) => z.number().int(`${what} must be a whole number`).positive(`${what} must be above 0`);

export const fileLimitsSchema = z
  .object({
    /** Largest FBX file, in bytes. */
    maxFbxBytes: count('maxFbxBytes').default(2 * GiB),
    /** Largest zip file, in bytes. */
    maxZipBytes: count('maxZipBytes').default(2 * GiB),
    /** Most entries (files and folders) in a zip. */
    maxZipEntries: count('maxZipEntries').default(10_000),
    /** Largest sum of the declared uncompressed sizes of a zip's entries, in bytes. */
    maxZipUncompressedBytes: count('maxZipUncompressedBytes').default(4 * GiB),
    /** Largest declared uncompressed:compressed ratio of one zip entry. */
    maxZipEntryRatio: z.number().positive('maxZipEntryRatio must be above 0').default(200),
    /** Largest image file, in bytes. */
    maxImageBytes: count('maxImageBytes').default(50 * MiB),
    /** Most pixels (width × height) of an image. */
    maxImagePixels: count('maxImagePixels').default(64 * MiB),
  })
  .strict();

export type FileLimits = z.output<typeof fileLimitsSchema>;
export type FileLimitsInput = z.input<typeof fileLimitsSchema>;

/** The limits with the defaults filled in; throws a RangeError naming each wrong setting. */
export function fileLimits(settings: FileLimitsInput = {}): FileLimits {
  const result = fileLimitsSchema.safeParse(settings);
  if (!result.success) throw new RangeError(`Invalid file limits: ${issuesToText(describeIssues(result.error))}.`);
  return result.data;
}

export const DEFAULT_LIMITS: FileLimits = fileLimits();

/**
 * What the local engine's FBX reader (Babylon.js's loader, on a worker thread) is given at most, checked before it
 * sees a byte: the loader holds the whole file as text of a data URL and its parse at once (a 250 MiB FBX took
 * 2.7 GB), and inflates each array into count × element size bytes. An FBX file (or one inflated from a zip) of
 * more than `fileBytes`, arrays of more than `arrayBytes` in all (declared, raw or compressed), or nodes nested
 * deeper than `depth` are refused with why.
 */
export const FBX_READ_LIMITS = {
  fileBytes: 128 * MiB,
  arrayBytes: 256 * MiB,
  depth: 64,
} as const;
