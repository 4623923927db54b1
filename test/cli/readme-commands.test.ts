// The README's command reference is `asset-studio help --markdown` (issue #34 item 1), so the two cannot drift
// apart; and the README stays a page a newcomer reads (item 6: at most 250 lines, the rest in docs/).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownReference } from '../../main/cli/help.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The text between the command reference's heading and the next heading. */
function referenceSection(readme: string): string {
  const start = readme.indexOf('## Command reference\n');
  expect(start, 'the README has a "## Command reference" section').toBeGreaterThanOrEqual(0);
  const body = readme.slice(start + '## Command reference\n'.length);
  return body.slice(0, body.search(/\n## /)).trim();
}

describe('the README', () => {
  it('holds the command reference that `help --markdown` prints', async () => {
    const printed = await runCli(['help', '--markdown'], cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() }));
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(markdownReference());
    expect(referenceSection(README)).toBe(markdownReference());
  });

  it('is at most 250 lines, and every page it links to exists', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
    const links = [...README.matchAll(/\]\(((?:docs|main|shared|renderer|bench|integrations)\/[^)#]+)/g)].map(
      (m) => m[1]!,
    );
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
  });

  it('the pages of docs/ link only to pages and anchors that exist', () => {
    const docs = join(ROOT, 'docs');
    const pages = ['cli', 'jobs', 'files-and-export', 'animation-export', 'desktop-app', 'viewer', 'blender', 'data'];
    for (const page of [...pages, 'configuration', 'real-service', 'engine', 'development']) {
      const text = readFileSync(join(docs, `${page}.md`), 'utf8');
      for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g))
        expect(existsSync(join(dirname(join(docs, `${page}.md`)), target!)), `${page}.md → ${target}`).toBe(true);
    }
  });
});
