// What an item of a batch carries beyond its index, name and state: its size, the bytes sent, its jobs and
// why it failed. Main's events (`batch.item`), main's kept batches (`batch.list`) and the renderer's queue
// copy these the same way: only the fields that are set, so a view never carries a key set to undefined.

export interface BatchItemDetails {
  /** The file's size. */
  size?: number | undefined;
  /** For FBX/zip uploads: bytes of the file sent so far, and its size. */
  sent?: number | undefined;
  total?: number | undefined;
  jobId?: string | undefined;
  /** The job of the animation prompts asked of an uploaded FBX/zip. */
  promptsJobId?: string | undefined;
  /** Why the item was rejected, failed or was cancelled. */
  error?: string | undefined;
}

/** The details of `from` that are set (any other field of `from` is left out). */
export function itemDetails(from: Readonly<BatchItemDetails>): BatchItemDetails {
  return {
    ...(from.size !== undefined && { size: from.size }),
    ...(from.sent !== undefined && { sent: from.sent }),
    ...(from.total !== undefined && { total: from.total }),
    ...(from.jobId !== undefined && { jobId: from.jobId }),
    ...(from.promptsJobId !== undefined && { promptsJobId: from.promptsJobId }),
    ...(from.error !== undefined && { error: from.error }),
  };
}
