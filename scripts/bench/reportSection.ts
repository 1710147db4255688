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

/** Writes (or replaces) the section `## <heading>` of the report file, creating the file if needed. */
export function writeReportSection(file: string, heading: string, body: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  writeFileSync(file, replaceSection(current, heading, body));
}
