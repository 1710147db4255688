import { PROBLEMS, problemTypeOf, type Problem } from './registry.js';

/** The pages style nothing inline: no script, no style, nothing loaded (a strict CSP). */
export const PROBLEM_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A description's text with its `code spans` as <code>. */
const prose = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** Every status a problem is answered with, its own first. */
export const statusesOf = (problem: Problem): number[] => [
  problem.status,
  ...('alsoStatus' in problem ? problem.alsoStatus : []),
];

/** The JSON of one problem's page (Accept: application/json). */
export function problemJson(problem: Problem) {
  return {
    type: problemTypeOf(problem.code),
    code: problem.code,
    title: problem.title,
    status: problem.status,
    statuses: statusesOf(problem),
    retryable: 'retryable' in problem ? problem.retryable : [408, 429, 502, 503, 504].includes(problem.status),
    description: problem.description,
  };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
</head>
<body>
${body}
</body>
</html>
`;
}

/** One problem's page: its code, statuses, title and what it means. */
export function problemHtml(problem: Problem): string {
  const json = problemJson(problem);
  return page(
    `${problem.code}: Campaign Rewards API problem`,
    `<p><a href="/problems">All problems</a> · <a href="/docs">API reference</a></p>
<h1><code>${problem.code}</code></h1>
<p>HTTP ${json.statuses.join(' or ')} · title “${escapeHtml(problem.title)}” · ${json.retryable ? 'retrying later may succeed' : 'retrying the same request does not help'}</p>
<p>${prose(problem.description)}</p>
<p>An RFC 9457 problem body (<code>application/problem+json</code>) of this kind has <code>type</code> <code>${json.type}</code> and <code>code</code> <code>${problem.code}</code>; <code>detail</code> says what went wrong in this occurrence and <code>requestId</code> identifies the request.</p>`,
  );
}

/** The index: every problem code with its status and title, each linking to its page. */
export function problemIndexHtml(): string {
  const rows = Object.values(PROBLEMS)
    .map(
      (p) =>
        `<tr><td><a href="${problemTypeOf(p.code)}"><code>${p.code}</code></a></td><td>${statusesOf(p).join(', ')}</td><td>${escapeHtml(p.title)}</td></tr>`,
    )
    .join('\n');
  return page(
    'Problems: Campaign Rewards API',
    `<p><a href="/docs">API reference</a></p>
<h1>Problems</h1>
<p>Every error of the API is an RFC 9457 problem body (<code>application/problem+json</code>) whose <code>type</code> is the page of its code below.</p>
<table>
<thead><tr><th>Code</th><th>Status</th><th>Title</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}
