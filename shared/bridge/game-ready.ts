// The bridge's game-ready commands (#31): the engine-fit check of a job's model, a job's real height, the review
// board's rows and approvals, and the request a job was made with (its "run again"). Spread into COMMANDS of
// contract.ts, the one contract; main/host/bridge-review.ts answers them.
import * as z from 'zod';
import { fitReportSchema } from '../fit-check.ts';

const id = z.string().min(1).max(200);
const profileName = z.string().min(1).max(64);

/** A model's figures beside its check (the review board's columns, the viewer's stats). */
export const modelSummary = z.object({
  triangles: z.number(),
  /** Width, height, depth in metres. */
  size: z.tuple([z.number(), z.number(), z.number()]),
  largestTexture: z.number().nullable(),
  /** Pixels per metre of surface; null: no textured triangle. */
  texelDensity: z.number().nullable(),
});

/** What the review board shows of one job besides its library entry. */
export const reviewEntry = z.object({
  jobId: z.string(),
  /** The create's endpoint: the credits spent are its price. */
  endpoint: z.string().nullable(),
  decision: z.enum(['approved', 'rejected']).nullable(),
  model: modelSummary.nullable(),
  verdict: z.enum(['fits', 'warnings', 'fails']).nullable(),
  errors: z.number().int(),
  warnings: z.number().int(),
  /** Why there is no verdict (not finished, no model cached). */
  reason: z.string().nullable(),
});
export type ReviewEntry = z.output<typeof reviewEntry>;

const heightM = z.number().positive().max(10_000);

export const GAME_READY_COMMANDS = {
  /** The engine-fit check of a job's cached model against a profile (the saved default when omitted). */
  'check.run': {
    input: z.object({ jobId: id, profile: profileName.optional() }),
    output: fitReportSchema.extend({ model: modelSummary, heightM: z.number().nullable() }),
  },
  /** Records a job's real height in metres (null forgets it): the check then offers "Set height …". */
  'job.setSize': {
    input: z.object({ jobId: id, heightM: heightM.nullable() }),
    output: z.object({ jobId: z.string(), heightM: z.number().nullable() }),
  },
  /** The review board's rows: each job's figures and verdict against the profile, and the decision. */
  'review.list': {
    input: z.object({ jobIds: z.array(id).max(500), profile: profileName.optional() }),
    output: z.object({ profile: z.string(), entries: z.array(reviewEntry) }),
  },
  /** Approves or rejects a job's model on the review board (null: undecided again). */
  'review.decide': {
    input: z.object({ jobId: id, decision: z.enum(['approved', 'rejected']).nullable() }),
    output: z.object({ jobId: z.string(), decision: z.enum(['approved', 'rejected']).nullable() }),
  },
  /**
   * One LOD level of a job's model made ready for a profile (the export's own chain: main/gameready), for the
   * viewer's LOD switch: the level's GLB (base64), how many levels the chain has, and the level's triangles and the
   * simplifier's error (relative to the model's size).
   */
  'export.lodPreview': {
    input: z.object({ jobId: id, profile: profileName, level: z.number().int().min(0).max(8) }),
    output: z.object({
      levels: z.number().int(),
      triangles: z.number().int(),
      error: z.number(),
      glb: z.string(),
    }),
  },
  /** The request a job was created with (the review board's "run again with other settings"); null: not recorded. */
  'jobs.request': {
    input: z.object({ id }),
    output: z.object({ endpoint: z.string(), params: z.record(z.string(), z.string()), body: z.unknown() }).nullable(),
  },
} as const;
