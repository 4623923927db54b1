// What the CLI prints that comes from outside (file names, job names and labels, prompts, the service's
// messages) may hold terminal control: `ESC]0;…BEL` retitles a terminal, `ESC[2J` clears it, a carriage
// return or cursor movement overwrites what was printed, and bidi overrides make text read other than it
// is. Everything printed goes through `neutralise` at the CLI's output boundary (main.ts), so no such
// character reaches the terminal as it is. The CLI's own control (progress bars redrawn on a terminal) is
// written through CliIO.terminal, the one channel that is not neutralised, and neutralises its lines itself.

/** C0 controls but newline and tab, DEL, C1 controls; and the bidi embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/**
 * `text` with every control character but newline and tab, and every bidi override, shown as an escape:
 * `\x1b` (`\u202e` for bidi) in text; in JSON (`json`), as the JSON escape `\u001b`, so the output stays
 * exact JSON that parses to the same values.
 */
export function neutralise(text: string, json = false): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return json || code > 0xff ? `\\u${hex(code, 4)}` : `\\x${hex(code, 2)}`;
  });
}
