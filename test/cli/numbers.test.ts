// Numbers on the command line: plain decimals only, one parser for every numeric option, each with its
// range; a bad value is named with its option, exit 2, and nothing is sent.
import { describe, expect, it } from 'vitest';
import { parseDecimal, parseDecimalList } from '../../main/cli/numbers.ts';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';
import { runInProcess } from './run-in-process.ts';

const CHAIR = realFixture('images', 'chair.png');

describe('the number parser', () => {
  it('takes plain decimals and nothing that Number() would also take', () => {
    expect(parseDecimal('--x', '12')).toBe(12);
    expect(parseDecimal('--x', '-0.5')).toBe(-0.5);
    expect(parseDecimal('--x', '.5')).toBe(0.5);
    for (const bad of [
      '0x10',
      '1e3',
      '0b1',
      '0o7',
      'Infinity',
      '',
      ' ',
      '+1',
      '1.',
      '12abc',
      '1_000',
      '1'.repeat(400),
    ]) {
      expect(() => parseDecimal('--x', bad), bad).toThrow(/--x takes a number/);
    }
  });

  it('applies the rules of the option: whole numbers, ranges', () => {
    const port = { integer: true, min: 0, max: 65_535 };
    expect(parseDecimal('--port', '8080', port)).toBe(8080);
    expect(() => parseDecimal('--port', '80.5', port)).toThrow(
      '--port takes a whole number from 0 to 65535 (got "80.5": not a whole number)',
    );
    expect(() => parseDecimal('--port', '70000', port)).toThrow(/too large/);
    expect(() => parseDecimal('--timeout', '0', { min: 0, minExclusive: true, unit: 'seconds' })).toThrow(
      '--timeout takes a number above 0 (seconds) (got "0": too small)',
    );
  });

  it('reads comma lists item by item, naming the bad item', () => {
    expect(parseDecimalList('--scaled-bbox', '1,-1,2')).toEqual([1, -1, 2]);
    expect(parseDecimalList('--scaled-bbox', '1, -1, 2.5')).toEqual([1, -1, 2.5]);
    expect(() => parseDecimalList('--scaled-bbox', '0x10,1,1')).toThrow(
      /--scaled-bbox .*"0x10" is not a plain decimal/,
    );
    expect(() => parseDecimalList('--scaled-bbox', '1,,1')).toThrow(/--scaled-bbox .*an empty item/);
  });
});

describe('numeric options of the CLI', () => {
  it('a value that is not a plain decimal, or out of its range, is exit 2 naming the option and value', async () => {
    const cases: [string[], RegExp][] = [
      [['create-3d', CHAIR, '--scaled-bbox', '1e0,1,1'], /--scaled-bbox .*"1e0"/],
      [['refine', 'SESSION_x', '--pivot-point', '0,0x0,0'], /--pivot-point .*"0x0"/],
      [['preview', 'SESSION_x', '--spin-index', '0x1'], /--spin-index .*"0x1"/],
      [['list', '--limit', '0x10'], /--limit .*"0x10"/],
      [['list', '--page', '2e0'], /--page .*"2e0"/],
      [['jobs', '--limit', '0'], /--limit takes a whole number of 1 or more \(got "0": too small\)/],
      [['watch', '--timeout', '1e3'], /--timeout .*"1e3"/],
      [
        ['wait', 'job_x', '--timeout', '0'],
        /--timeout takes a number above 0 and at most 2147483 \(seconds\) \(got "0": too small\)/,
      ],
      [['batch', CHAIR, '--concurrency', '0x2'], /--concurrency .*"0x2"/],
      [['engine', '--port', '0x10'], /--port .*"0x10"/],
      [
        ['engine', '--legacy-port', '65536'],
        /--legacy-port takes a whole number from 0 to 65535 \(got "65536": too large\)/,
      ],
      [
        ['webhooks', 'enable', '--port', '80.5'],
        /--port takes a whole number from 0 to 65535 \(got "80\.5": not a whole number\)/,
      ],
      [['text-to-image', 'a', 'lamp', '--engine-speed', '0x10'], /--engine-speed .*"0x10"/],
      [
        ['export', 'job_x', '--project', '.', '--scale-height', '-1'],
        /--scale-height takes a number above 0 \(metres\) \(got "-1": too small\)/,
      ],
      [['export', 'job_x', '--project', '.', '--scale-factor', 'Infinity'], /--scale-factor .*"Infinity"/],
    ];
    for (const [args, message] of cases) {
      const result = await runInProcess(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('as a process: nothing is sent or recorded, and no "datatype mismatch" leaks', { timeout: 120_000 }, async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const [bbox, limit, port] = await Promise.all([
      runCli(['create-3d', CHAIR, '--scaled-bbox', '0x10,1,1'], env),
      runCli(['jobs', '--limit', 'abc'], env),
      runCli(['webhooks', 'enable', '--port', '0x10'], env),
    ]);
    expect(bbox.code).toBe(2);
    expect(bbox.stderr).toMatch(/--scaled-bbox .*"0x10"/);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toMatch(/--limit takes a whole number of 1 or more .*"abc"/);
    expect(limit.stderr).not.toMatch(/datatype mismatch/);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port .*"0x10"/);
    expect(JSON.parse((await runCli(['jobs', '--json'], env)).stdout)).toEqual([]);
    expect((JSON.parse((await runCli(['list', '--json'], env)).stdout) as { totalResults: number }).totalResults).toBe(
      0,
    );
    expect(JSON.parse((await runCli(['webhooks', 'status', '--json'], env)).stdout)).toMatchObject({ enabled: false });
  });

  it('a negative first number may follow its option after a space (--scaled-bbox -1,-1,-1)', {
    timeout: 120_000,
  }, async () => {
    const result = await runCli(
      ['create-3d', CHAIR, '--scaled-bbox', '-1,-1,-1', '--json'],
      cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() }),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { data: { scaled_bbox: number[] } }).data.scaled_bbox).toEqual([-1, -1, -1]);
  });
});
