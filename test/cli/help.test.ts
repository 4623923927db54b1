// Every command has its own --help (usage, arguments, options, an example), from the same table as the
// general help.
import { describe, expect, it } from 'vitest';
import { COMMANDS, globalsOf } from '../../main/cli/command-table.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';
import { runInProcess as helpOf } from './run-in-process.ts';

describe('help', () => {
  it('each command prints its own usage, arguments, options and example', async () => {
    for (const command of COMMANDS) {
      const help = await helpOf([command.name, '--help']);
      expect(help.code, command.name).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout.startsWith(`Usage: asset-studio ${command.name}`), help.stdout).toBe(true);
      for (const arg of command.args) expect(help.stdout, command.name).toContain(arg.name);
      for (const option of [...Object.keys(command.options), ...globalsOf(command)])
        expect(help.stdout, command.name).toContain(`--${option}`);
      expect(help.stdout).toMatch(new RegExp(`Examples?:\\n  asset-studio ${command.name}[ \\n]`));
      expect(help.stdout, command.name).not.toContain('Service commands:');
      // "help <command>" and -h say the same.
      expect((await helpOf(['help', command.name])).stdout).toBe(help.stdout);
      expect((await helpOf(['-h', command.name])).stdout).toBe(help.stdout);
    }
  });

  it('the general help lists every command of the table', async () => {
    const help = await helpOf(['help']);
    expect(help.code).toBe(0);
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command.name} `, 'm'));
    expect(help.stdout).toContain('Run "asset-studio <command> --help"');
  });

  it('as a process: export, batch, key and jobs have their own help', { timeout: 120_000 }, async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const [exportHelp, batchHelp, keyHelp, jobsHelp] = await Promise.all([
      runCli(['export', '--help'], env),
      runCli(['batch', '-h'], env),
      runCli(['key', '--help'], env),
      runCli(['jobs', '--help'], env),
    ]);
    expect(exportHelp.code).toBe(0);
    expect(exportHelp.stdout).toMatch(/^Usage: asset-studio export <job> \[options\]/);
    expect(exportHelp.stdout).toMatch(/--scale-height M +scale to this height in metres/);
    expect(batchHelp.stdout).toMatch(/^Usage: asset-studio batch <file or folder>\.\.\./);
    expect(batchHelp.stdout).toMatch(/--concurrency N/);
    expect(keyHelp.stdout).toMatch(/^Usage: asset-studio key set\|remove\|status/);
    expect(jobsHelp.stdout).toMatch(/--limit N/);
  });

  it('help of an unknown command is bad usage', async () => {
    const help = await helpOf(['help', 'frobnicate']);
    expect(help.code).toBe(2);
    expect(help.stderr).toMatch(/unknown command "frobnicate"/);
  });
});
