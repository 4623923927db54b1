// Answers of the generative 3D service as stand-in servers in tests and benches send them (no vitest here:
// bench/ scripts import it too).

/**
 * The body of GET /image-to-3d-sessions listing no session, with the balance (`credits`): a valid answer to the
 * app's health check too.
 */
export function emptySessionList({ page = 0, limit = 10, credits = 1000 } = {}): string {
  return JSON.stringify({
    error: '',
    message: 'Retrieved',
    statusCode: 200,
    data: {
      results: [],
      page,
      skip: 0,
      limit,
      totalPages: 0,
      totalResults: 0,
      credits,
      image_to_3d_credits: 10,
    },
  });
}
