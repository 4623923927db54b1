// The values of the command line checked against the command table before a command runs: every
// numeric option by its rule (so a bad number is reported, exit 2, before anything is opened or sent),
// and every path found again by its bytes when its name is not valid UTF-8.
import { dataUriMime, isHttpUrl } from '../../shared/contract/common.ts';
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './command-table.ts';
import type { Values } from './commands.ts';
import type { PathAliases } from './file-names.ts';
import { parseDecimal, parseDecimalList } from './numbers.ts';
import { UsageError } from './usage-error.ts';

function optionsOf(command: CommandSpec | undefined): Record<string, OptionSpec> {
  return { ...GLOBAL_OPTIONS, ...command?.options };
}

/**
 * `--scaled-bbox -1,-1,-1` as `--scaled-bbox=-1,-1,-1`: the parser would take a value that starts with a
 * dash for an option, and numeric options often start with one.
 */
export function joinNegativeNumbers(args: readonly string[], command: CommandSpec | undefined): string[] {
  const options = optionsOf(command);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const option = arg.startsWith('--') ? options[arg.slice(2)] : undefined;
    if (option?.number && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Throws a UsageError naming the option and the value when a numeric option breaks its rule. */
export function checkNumbers(values: Values, command: CommandSpec | undefined): void {
  for (const [name, option] of Object.entries(optionsOf(command))) {
    const text = values[name];
    if (!option.number || typeof text !== 'string') continue;
    if (option.list) parseDecimalList(`--${name}`, text, option.number);
    else parseDecimal(`--${name}`, text, option.number);
  }
}

/** Throws a UsageError naming the options when more than one of a group the command declares exclusive is given. */
export function checkExclusive(values: Values, command: CommandSpec | undefined): void {
  for (const group of command?.exclusive ?? []) {
    const given = group.filter((name) => values[name] !== undefined);
    if (given.length > 1) {
      throw new UsageError(
        `${given.map((n) => `--${n}`).join(' and ')} cannot be used together: give one of ${group.map((n) => `--${n}`).join(', ')}.`,
      );
    }
  }
}

const isUrl = (value: string) => isHttpUrl(value) || dataUriMime(value) !== undefined;

/**
 * The positionals with their paths resolved (see file-names.ts); path options are resolved in `values`.
 * URLs, data URIs and `-` (standard input) are left as they are.
 */
export function resolvePaths(
  command: CommandSpec,
  values: Values,
  positionals: readonly string[],
  aliases: PathAliases,
): string[] {
  const resolve = (value: string) => (value === '-' || isUrl(value) ? value : aliases.resolve(value));
  for (const [name, option] of Object.entries(optionsOf(command))) {
    const value = values[name];
    if (option.path && typeof value === 'string') values[name] = resolve(value);
  }
  return positionals.map((value, index) => {
    const arg = command.args[Math.min(index, command.args.length - 1)];
    const applies = arg?.path === true && (index < command.args.length || arg.rest === true);
    return applies ? resolve(value) : value;
  });
}
