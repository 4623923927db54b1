// Secrets given to a command: `--NAME-file FILE`, `--NAME-file -` (standard input), or `--NAME VALUE`,
// which works but is warned about: the arguments of a process are visible to every user of the machine
// (ps, /proc/<pid>/cmdline) and the shell keeps them in its history.
import { readFileSync, statSync } from 'node:fs';
import type { Values } from './commands.ts';
import type { CliIO } from './context.ts';
import { UsageError } from './usage-error.ts';

export interface SecretOption {
  /** The option that takes the value itself, e.g. `api-key`; its file twin is `<value>-file`. */
  value: string;
  /** The other safe ways, for the warning, e.g. `ASSET_STUDIO_API_KEY or "asset-studio key set"`. */
  alternatives?: string;
}

export interface GivenSecret {
  value: string;
  from: 'argument' | 'file' | 'stdin';
}

/** The secret of `option`, read from its file or standard input, or from the argument with a warning. */
export async function readSecretOption(
  values: Values,
  io: CliIO,
  option: SecretOption,
): Promise<GivenSecret | undefined> {
  const fileOption = `${option.value}-file`;
  const inline = values[option.value];
  const file = values[fileOption];
  if (typeof inline === 'string' && typeof file === 'string') {
    throw new UsageError(
      `--${option.value} and --${fileOption} were both given: keep --${fileOption} (the argument is visible to other users).`,
    );
  }
  if (typeof inline === 'string') {
    io.stderr(
      `warning: --${option.value} puts the secret on the command line, where other users of this computer can see it (ps) and your shell keeps it in its history. ` +
        `Use --${fileOption} FILE, or --${fileOption} - to read it from standard input${option.alternatives ? `, or ${option.alternatives}` : ''}.\n`,
    );
    return nonEmpty({ value: inline.trim(), from: 'argument' }, `--${option.value}`);
  }
  if (typeof file !== 'string') return undefined;
  if (file === '-')
    return nonEmpty({ value: firstLine(await io.readStdin()), from: 'stdin' }, `--${fileOption} - (standard input)`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(
      `--${fileOption}: the file "${file}" cannot be read (${code}). Check the path, or pass - to read the secret from standard input.`,
    );
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    io.stderr(`warning: ${file} (--${fileOption}) can be read by other users: run chmod 600 "${file}".\n`);
  }
  return nonEmpty({ value: firstLine(text), from: 'file' }, `--${fileOption} ${file}`);
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

function nonEmpty(secret: GivenSecret, where: string): GivenSecret {
  if (secret.value === '') throw new UsageError(`${where}: the secret is empty. Put it on the first line.`);
  return secret;
}
