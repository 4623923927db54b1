// `asset-studio doctor`: checks the local database and, when it is damaged (or was kept aside as damaged),
// salvages what can be read into a new one, keeping the damaged file aside (main/store/salvage.ts).
import { databasePath } from '../store/database.ts';
import { doctorDatabase } from '../store/salvage.ts';
import { printJson, type CommandContext } from './context.ts';

export async function doctorCommand(ctx: CommandContext): Promise<number> {
  const report = doctorDatabase(databasePath(ctx.settings.dataDir));
  if (ctx.values.json) {
    printJson(ctx.io, report);
    return 0;
  }
  if (report.outcome === 'none') {
    ctx.io.stdout(`There is no database at ${report.path} yet: nothing to check.\n`);
    return 0;
  }
  if (report.outcome === 'intact') {
    ctx.io.stdout(`The database ${report.path} is intact (integrity check: ok).\n`);
    return 0;
  }
  const width = Math.max(...report.tables.map((t) => t.table.length));
  const lines = report.tables.map(
    (t) =>
      `  ${t.table.padEnd(width)}  ${t.rows} row${t.rows === 1 ? '' : 's'}${t.unreadable === null ? '' : ` (part of it could not be read: ${t.unreadable})`}`,
  );
  ctx.io.stdout(
    `The database ${report.path} was damaged (${report.check}).\n` +
      `It is kept aside as ${report.keptAs} (nothing was deleted), and a new database holds what could be read:\n` +
      `${lines.join('\n')}\n`,
  );
  return 0;
}
