/**
 * Sections of docs/benchmarks/report.md that a benchmark writes itself (bench:rewards writes
 * "## Rewards at real scale (bench:rewards)"), beside the ones `npm run bench` (scripts/bench/report.ts)
 * writes as `## <name> (<seconds> s)`: each is replaced in place when re-run, and report.ts keeps them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One `## ` section: its heading (without `## `) and its text from the heading line to the next section. */
export type ReportSection = { heading: string; text: string };

/** Pure: the `## ` sections of a report, in order (what precedes the first one is left out). */
export function splitSections(markdown: string): ReportSection[] {
  const sections: ReportSection[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) sections.push({ heading: line.slice(3), text: line });
    else if (sections.length) sections[sections.length - 1]!.text += `\n${line}`;
  }
  return sections;
}

/** Pure: whether a section is one report.ts writes itself (`## <name> (<seconds> s…)`). */
export const isRunSection = (heading: string): boolean => /^\S+ \(\d+ s\b/.test(heading);

/**
 * Pure: `markdown` with the section `## <heading>` replaced by `body` (the text under the heading), or
 * with it appended when absent; an empty report starts with the report's title.
 */
export function replaceSection(markdown: string, heading: string, body: string): string {
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) {
    const base = markdown.trim() ? markdown.trimEnd() : '# Benchmark report';
    return `${base}\n\n${section}`;
  }
  const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  const after = next < 0 ? '' : `\n${lines.slice(next).join('\n')}`;
  return `${lines.slice(0, start).join('\n')}\n${section}${after}`;
}

/** Pure: the rows of the first table in a section's text (the `|` lines after its `|---` line). */
export function tableRows(text: string): string[] {
  const lines = text.split('\n');
  const sep = lines.findIndex((l) => l.startsWith('|---'));
  if (sep < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(sep + 1)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows;
}

const firstCell = (row: string) => row.split('|')[1]!.trim();

/**
 * Pure: `previous` table rows with each one whose first cell a row of `next` names replaced by that row,
 * in place, then `next`'s other rows (a partial re-run updates its rows and keeps the others).
 */
export function mergeRowsByFirstCell(previous: readonly string[], next: readonly string[]): string[] {
  const byKey = new Map(next.map((r) => [firstCell(r), r]));
  const merged = previous.map((r) => byKey.get(firstCell(r)) ?? r);
  const kept = new Set(previous.map(firstCell));
  return [...merged, ...next.filter((r) => !kept.has(firstCell(r)))];
}

/**
 * Pure: the body of a section a partial re-run writes over `previous` (the section's text, heading
 * included): the previous paragraphs above the table, less the line of an earlier partial run (a line
 * starting as `rerunLine` does, up to its first colon), then `rerunLine`, then the table `head` with the
 * previous rows updated by `rows` (mergeRowsByFirstCell).
 */
export function partialRunBody(
  previous: string,
  rerunLine: string,
  head: readonly string[],
  rows: readonly string[],
): string {
  const lines = previous.split('\n');
  const tableAt = lines.findIndex((l) => l.startsWith('|'));
  const label = rerunLine.slice(0, rerunLine.indexOf(':') + 1);
  const paragraphs = lines
    .slice(1, tableAt < 0 ? lines.length : tableAt)
    .filter((l) => l.trim() && !(label && l.startsWith(label)));
  const table = [...head, ...mergeRowsByFirstCell(tableRows(previous), rows)];
  return `${[...paragraphs, rerunLine].join('\n\n')}\n\n${table.join('\n')}`;
}

/** The text of section `## <heading>` of the report file; null when the file or the section is absent. */
export function readReportSection(file: string, heading: string): string | null {
  if (!existsSync(file)) return null;
  return splitSections(readFileSync(file, 'utf8')).find((s) => s.heading === heading)?.text ?? null;
}

/** Writes (or replaces) the section `## <heading>` of the report file, creating the file if needed. */
export function writeReportSection(file: string, heading: string, body: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  writeFileSync(file, replaceSection(current, heading, body));
}
