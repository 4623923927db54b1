// Two checks of the project's sources that `npm run check` runs (issue #34 items 3 and 4):
// - no source file over MAX_LINES lines (a module read in one sitting);
// - no dead code: an exported name that no other file uses is either unused (delete it) or private to its module
//   (drop its `export`). Names are matched as words across every file of the project (sources, tests, benches,
//   scripts), so a name used only through a string or another language is listed in KEPT with why.
// `node scripts/check-sources.ts` prints what it finds and exits 1 when it finds anything.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const MAX_LINES = 450;
const ROOT = join(import.meta.dirname, '..');
/** Production sources: held to both checks. */
const SOURCES = ['main', 'shared', 'renderer', 'scripts', 'bin'];
/** What else may use an exported name. */
const USERS = ['test', 'bench', 'integrations'];
const CODE = /\.(?:[cm]?[jt]sx?)$/;

/** Names exported for a reader that is not a TypeScript import: each with why. */
const KEPT: Readonly<Record<string, string>> = {};

function filesIn(folder: string): string[] {
  try {
    return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && CODE.test(e.name) && !e.name.endsWith('.d.ts'))
      .filter((e) => !e.parentPath.includes('node_modules') && !e.parentPath.includes(`${join(ROOT, 'dist')}`))
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

const EXPORTED =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

interface Finding {
  file: string;
  line: number;
  name: string;
  problem: 'unused' | 'private' | 'too-long';
}

export function checkSources(): Finding[] {
  const sources = SOURCES.flatMap(filesIn);
  const all = [...sources, ...USERS.flatMap(filesIn)];
  const texts = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
  // How many files use each word (a file counts once).
  const users = new Map<string, number>();
  for (const text of texts.values()) {
    for (const word of new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])) users.set(word, (users.get(word) ?? 0) + 1);
  }
  const findings: Finding[] = [];
  for (const file of sources) {
    const text = texts.get(file)!;
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES) findings.push({ file: relative(ROOT, file), line: lines, name: '', problem: 'too-long' });
    for (const m of text.matchAll(EXPORTED)) {
      const name = m[1]!;
      if (KEPT[name] !== undefined || (users.get(name) ?? 0) > 1) continue;
      const own = text.match(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
      const line = text.slice(0, m.index).split('\n').length;
      findings.push({ file: relative(ROOT, file), line, name, problem: own > 1 ? 'private' : 'unused' });
    }
  }
  return findings;
}

const WORDS: Record<Finding['problem'], string> = {
  'too-long': `lines: over ${MAX_LINES}; split it into modules read in one sitting`,
  unused: 'is exported and used nowhere: delete it',
  private: 'is exported but used only in its own file: drop its export',
};

if (import.meta.main) {
  const findings = checkSources();
  for (const f of findings)
    console.error(
      f.problem === 'too-long'
        ? `${f.file}: ${f.line} ${WORDS[f.problem]}`
        : `${f.file}:${f.line}: ${f.name} ${WORDS[f.problem]}`,
    );
  if (findings.length > 0) {
    console.error(`check-sources: ${findings.length} problem(s)`);
    process.exitCode = 1;
  }
}
