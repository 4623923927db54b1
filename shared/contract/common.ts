// Building blocks shared by the request and response schemas of the service contract.
// Messages are written for people: they say what the rule is, not how zod checks it.
import * as z from 'zod';

export const SESSION_PREFIX = 'SESSION_';
export const ASSET_PREFIX = 'ASSET_';

/**
 * The error option of a schema: `text` for a value that breaks the rule, "is required" for a missing one
 * (zod would otherwise say the same text for both).
 */
export function rule(text: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : text) };
}

/** ISO 8601 UTC with milliseconds, e.g. 2026-11-21T10:00:00.000Z. Responses only need a string. */
export const timestamp = z.string();

/** A URL field of a response: empty string until the file is produced. Missing counts as empty. */
export const outputUrl = z.string().default('');

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+);base64,[A-Za-z0-9+/]+={0,2}$/i;

/** Returns the MIME type of a base64 data URI, or undefined when the text is not one. */
export function dataUriMime(value: string): string | undefined {
  const match = DATA_URI.exec(value);
  return match ? match[1]!.toLowerCase() : undefined;
}

export const sessionCode = z
  .string(rule('must be a session code (text starting with SESSION_)'))
  .trim()
  .refine((v) => v.startsWith(SESSION_PREFIX) && v.length > SESSION_PREFIX.length, {
    error: 'must be a session code starting with SESSION_',
  });

export const httpUrl = z
  .string(rule('must be a URL'))
  .trim()
  .refine(isHttpUrl, rule('must be an http:// or https:// URL'));

/** An image given as an http(s) URL or as a base64 data URI with an image MIME type. */
export const imageSource = z
  .string(rule('must be an image URL or a data URI'))
  .trim()
  .min(1, rule('is required: give an image URL or a data URI'))
  .superRefine((value, ctx) => {
    if (isHttpUrl(value)) return;
    const mime = dataUriMime(value);
    if (mime === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an http(s) URL or a base64 data URI such as data:image/png;base64,...',
      });
    } else if (!mime.startsWith('image/')) {
      ctx.addIssue({ code: 'custom', message: `must hold an image, but its MIME type is ${mime}` });
    }
  });

function triple(what: string, check: (n: number) => string | undefined) {
  return z
    .array(z.number(rule(`each value of ${what} must be a number`)), {
      error: `must be a list of 3 numbers (${what})`,
    })
    .superRefine((values, ctx) => {
      if (values.length !== 3) {
        ctx.addIssue({ code: 'custom', message: `must have exactly 3 numbers (${what}), got ${values.length}` });
        return;
      }
      values.forEach((n, i) => {
        const problem = check(n);
        if (problem) ctx.addIssue({ code: 'custom', path: [i], message: `${problem} (got ${n})` });
      });
    })
    .transform((v) => v as [number, number, number]);
}

/** [width, height, depth] in metres; -1 in a slot means automatic. */
export const scaledBbox = triple('width, height, depth in metres', (n) =>
  n === -1 || (Number.isFinite(n) && n > 0) ? undefined : 'must be a size in metres above 0, or -1 for automatic',
);

/** Pivot normalised to the bounding box: each value in [-0.5, 0.5]. */
export const pivotPoint = triple('x, y, z between -0.5 and 0.5', (n) =>
  Number.isFinite(n) && n >= -0.5 && n <= 0.5 ? undefined : 'must be between -0.5 and 0.5',
);

/** Fields of a response that may be absent, each a text when there: `{ name: z.string().optional(), … }`. */
export function optionalTexts<const N extends string>(...names: N[]): { [K in N]: z.ZodOptional<z.ZodString> } {
  return Object.fromEntries(names.map((name) => [name, z.string().optional()])) as {
    [K in N]: z.ZodOptional<z.ZodString>;
  };
}

/** A text holding JSON that `schema` takes: the text is parsed first, and one that is not JSON fails as an issue. */
export function jsonOf<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

/** The name of a model, e.g. "sculpt": any text but an empty one (the service names new models); `fallback` when absent. */
export function modelName(fallback: string) {
  const text = rule(`must be a model name, e.g. "${fallback}"`);
  return z.string(text).trim().min(1, text).default(fallback);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` });
}

/** The envelope of every endpoint except /v3/sessions. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.looseObject({
    error: z.string(),
    message: z.string(),
    statusCode: z.number().int(),
    data,
  });
}

/** The envelope without a typed payload, for error bodies. */
export const errorEnvelope = z.looseObject({
  error: z.string(),
  message: z.string(),
  statusCode: z.number().int().optional(),
});

export type Vec3 = [number, number, number];
