// The text of an error kept in a session's record (and answered by the API): it may quote an input, but only a
// few hundred characters of it. Babylon's FBX loader puts the whole file it was given in its message ("Unable to
// load from data:;base64,…"): a 26 MB ASCII FBX it rejected made a 72 MB record, the session could no longer be
// read and its job stayed "running".

/** Most characters of an error text kept in a record. */
export const MAX_ERROR_CHARS = 1000;
/** Most characters kept of one run without spaces (a data URL, base64, a binary string quoted). */
const MAX_RUN_CHARS = 120;

/** `text` with each data URL named by its length, each long run of characters cut, and at most MAX_ERROR_CHARS in all. */
export function errorText(text: string): string {
  const shown = text
    .replace(/data:[^\s,]*,\S*/g, (uri) => `the file given to the reader (a data URL of ${uri.length} characters)`)
    .replace(/\S{200,}/g, (run) => `${run.slice(0, MAX_RUN_CHARS)}… (${run.length - MAX_RUN_CHARS} more characters)`);
  if (shown.length <= MAX_ERROR_CHARS) return shown;
  const left = shown.length - MAX_ERROR_CHARS;
  return `${shown.slice(0, MAX_ERROR_CHARS)}… (${left} more characters left out)`;
}
