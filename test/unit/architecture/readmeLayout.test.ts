import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';

/** The README's Layout block: one entry per top-level folder, its description on the following lines. */
function layoutEntries(readme: string): { folder: string; text: string }[] {
  const section = readme.slice(readme.indexOf('## Layout'));
  const block = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
  const entries: { folder: string; text: string }[] = [];
  for (const line of block.split('\n')) {
    const head = /^([a-z][\w-]*)\/\s+(.*)$/.exec(line);
    if (head) entries.push({ folder: head[1]!, text: head[2]! });
    else if (line.trim() && entries.length > 0) entries[entries.length - 1]!.text += ` ${line.trim()}`;
  }
  return entries;
}

/** Every tracked path, folders included (`a/b/c.ts` gives `a/b/c.ts`, `a/b/`, `a/`). */
function trackedPaths(): Set<string> {
  const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const paths = new Set<string>();
  for (const file of files) {
    paths.add(file);
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) paths.add(`${parts.slice(0, i).join('/')}/`);
  }
  return paths;
}

describe('architecture: the README Layout matches the tree', () => {
  const entries = layoutEntries(readFileSync('README.md', 'utf8'));
  const paths = trackedPaths();

  it('describes every tracked top-level folder once, and no folder that does not exist', () => {
    const described = entries.map((e) => e.folder);
    const folders = [...paths].filter((p) => /^[a-z][\w-]*\/$/.test(p)).map((p) => p.slice(0, -1));
    expect([...described].sort(), 'each folder once').to.deep.equal([...new Set(described)].sort());
    expect([...new Set(described)].sort()).to.deep.equal(folders.sort());
  });

  it('names only files and folders that exist under the folder it describes', () => {
    const missing: string[] = [];
    for (const { folder, text } of entries) {
      // Names like `app.ts`, `routes/<family>/`, `migrate.ts`: file names and folder names (a word then `/`).
      const names = text.match(/[\w.-]+\.(?:ts|tsx|json|sh|md|cjs|sol|conf)\b|\b[a-z][\w-]*\/(?=[\s,:)(]|$)/g) ?? [];
      for (const name of names) {
        const found = [...paths].some(
          (p) => p.startsWith(`${folder}/`) && (p.endsWith(`/${name}`) || p === `${folder}/${name}`),
        );
        if (!found) missing.push(`${folder}/ … ${name}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });
});
