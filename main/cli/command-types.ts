// The shapes of the command table (command-table.ts): a command, its arguments, its options and their groups.
import type { EndpointId } from '../../shared/contract/index.ts';
import type { GlobalOption } from './command-options.ts';
import type { NumberRule } from './numbers.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** How the value is shown in help: `N`, `DIR`, `W,H,D`. */
  value?: string;
  text: string;
  /** The value is a number (or, with `list`, numbers separated by commas) written as a plain decimal. */
  number?: NumberRule;
  list?: boolean;
  /** The value is a local file or folder: when its name is not valid UTF-8 it is found by its bytes. */
  path?: boolean;
  short?: string;
}

export interface ArgSpec {
  /** As shown in the usage line: `<session>`, `<text>...`, `[OP]`. */
  name: string;
  text: string;
  /**
   * A local file or folder (unless it is an http(s) URL or a data URI): when its name is not valid UTF-8
   * it is found by its bytes. With `rest`, every remaining argument is one.
   */
  path?: boolean;
  rest?: boolean;
}

export type Group = 'Service commands' | 'Jobs' | 'Files' | 'Other';

export interface CommandSpec {
  name: string;
  group: Group;
  /** Endpoint commands take their summary from the contract. */
  summary?: string;
  endpoint?: EndpointId;
  args: ArgSpec[];
  options: Record<string, OptionSpec>;
  /** Global options that mean something for this command (besides --json and the connection ones). */
  globals?: GlobalOption[];
  /** Groups of options that exclude each other: at most one of each group may be given (else exit 2). */
  exclusive?: readonly (readonly string[])[];
  examples: string[];
}
