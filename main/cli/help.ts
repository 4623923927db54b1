// The general help and the help of each command, both derived from the command table.
import {
  COMMANDS,
  CONNECTION_OPTIONS,
  GLOBAL_OPTIONS,
  globalsOf,
  summaryOf,
  type CommandSpec,
  type Group,
  type OptionSpec,
} from './command-table.ts';

const GROUPS: readonly Group[] = ['Service commands', 'Jobs', 'Files', 'Other'];
/** Left columns longer than this put their text on the next line. */
const MAX_LEFT = 30;

function row(left: string, text: string, width: number): string {
  return left.length <= width ? `  ${left.padEnd(width)}  ${text}` : `  ${left}\n  ${' '.repeat(width)}  ${text}`;
}

/** Rows aligned on the longest left column that fits. */
function table(rows: [string, string][]): string[] {
  const width = Math.min(MAX_LEFT, Math.max(0, ...rows.map(([left]) => left.length).filter((n) => n <= MAX_LEFT)));
  return rows.map(([left, text]) => row(left, text, width));
}

const optionLeft = (name: string, o: OptionSpec) =>
  `${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` ${o.value}` : ''}`;

/** `asset-studio create-3d <image-url|file> [options]` */
export function usageLine(command: CommandSpec): string {
  const hasOptions = Object.keys(command.options).length > 0 || globalsOf(command).length > 0;
  return ['asset-studio', command.name, ...command.args.map((a) => a.name), ...(hasOptions ? ['[options]'] : [])].join(
    ' ',
  );
}

export function generalHelp(): string {
  const lines = ['Usage: asset-studio <command> [arguments] [options]'];
  for (const group of GROUPS) {
    lines.push('', `${group}:`);
    lines.push(...table(COMMANDS.filter((c) => c.group === group).map((c) => [c.name, summaryOf(c)])));
  }
  lines.push(
    '',
    'Global options:',
    ...table(
      (Object.entries(GLOBAL_OPTIONS) as [string, OptionSpec][]).map(([name, o]) => [optionLeft(name, o), o.text]),
    ),
  );
  lines.push(
    '',
    "The connection: flags, then the environment, then the app's active profile; with none of them,",
    'commands run against the embedded local engine.',
    'Exit codes: 0 done, 1 other failure or stopped, 2 bad usage or a request rejected before sending,',
    '3 the service answered with an error (or a job failed), 4 timeout, 5 network, 6 a check found an error.',
    'Run "asset-studio <command> --help" for the arguments, options and an example of a command.',
  );
  return lines.join('\n');
}

export function commandHelp(command: CommandSpec): string {
  const lines = [`Usage: ${usageLine(command)}`, '', `${summaryOf(command)}.`];
  if (command.args.length) {
    lines.push('', 'Arguments:', ...table(command.args.map((a) => [a.name, a.text])));
  }
  const own = Object.entries(command.options);
  const globals = globalsOf(command).map((name) => [name, GLOBAL_OPTIONS[name]] as [string, OptionSpec]);
  lines.push('', 'Options:', ...table([...own, ...globals].map(([name, o]) => [optionLeft(name, o), o.text])));
  lines.push('', command.examples.length > 1 ? 'Examples:' : 'Example:', ...command.examples.map((e) => `  ${e}`));
  lines.push(
    '',
    `Connection options (${CONNECTION_OPTIONS.map((o) => `--${o}`).join(', ')}): see "asset-studio help".`,
  );
  return lines.join('\n');
}
