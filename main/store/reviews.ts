// Table `job_reviews`: what the user said of a job's model: its real height (the engine-fit check asks when the
// model is 1 m, the generator's default) and the review board's decision (approved or rejected).
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export type ReviewDecision = 'approved' | 'rejected';

export interface JobReview {
  jobId: string;
  /** The model's real height in metres; null: not said. */
  heightM: number | null;
  /** null: not reviewed yet. */
  decision: ReviewDecision | null;
  updatedAt: number;
}

interface Row {
  job_id: string;
  height_m: number | null;
  decision: ReviewDecision | null;
  updated_at: number;
}

const toReview = (row: Row): JobReview => ({
  jobId: row.job_id,
  heightM: row.height_m,
  decision: row.decision,
  updatedAt: row.updated_at,
});

export class ReviewsRepository {
  readonly #get: StatementSync;
  readonly #height: StatementSync;
  readonly #decision: StatementSync;
  readonly #all: StatementSync;

  constructor(db: DatabaseSync) {
    this.#get = db.prepare('SELECT * FROM job_reviews WHERE job_id = ?');
    this.#height = db.prepare(`
      INSERT INTO job_reviews (job_id, height_m, updated_at) VALUES (:job_id, :value, :now)
      ON CONFLICT (job_id) DO UPDATE SET height_m = excluded.height_m, updated_at = excluded.updated_at`);
    this.#decision = db.prepare(`
      INSERT INTO job_reviews (job_id, decision, updated_at) VALUES (:job_id, :value, :now)
      ON CONFLICT (job_id) DO UPDATE SET decision = excluded.decision, updated_at = excluded.updated_at`);
    this.#all = db.prepare('SELECT * FROM job_reviews ORDER BY job_id');
  }

  get(jobId: string): JobReview | undefined {
    const row = this.#get.get(jobId) as Row | undefined;
    return row === undefined ? undefined : toReview(row);
  }

  /** Records the model's real height (null forgets it). The job must exist (foreign key). */
  setHeight(jobId: string, heightM: number | null, now = Date.now()): JobReview {
    this.#height.run({ job_id: jobId, value: heightM, now });
    return this.get(jobId)!;
  }

  /** Approves or rejects the job's model on the review board (null: undecided again). */
  setDecision(jobId: string, decision: ReviewDecision | null, now = Date.now()): JobReview {
    this.#decision.run({ job_id: jobId, value: decision, now });
    return this.get(jobId)!;
  }

  /** Every review, by job id. */
  all(): Map<string, JobReview> {
    return new Map((this.#all.all() as unknown as Row[]).map((row) => [row.job_id, toReview(row)]));
  }
}
