// Once per run of the process tier: the `asset-studio` command is bundled into dist/cli/ when its sources changed
// since the last build (scripts/build-cli.ts), so the tests that start the real launcher run what a user runs,
// and none of them pays for the build, or races another one building it, on its first start.
import { buildCli } from '../../scripts/build-cli.ts';

export default async function setup(): Promise<void> {
  await buildCli({ ifStale: true });
}
