import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { AppError } from '../../../../api/errors.js';
import {
  PROBLEMS,
  STATUS_TITLES,
  problemOfSlug,
  problemOfStatus,
  problemSlug,
  problemTypeOf,
  type ProblemCode,
} from '../../../../api/problems/registry.js';

/** The production TypeScript files (tracked), with their text. */
function productionSources(): { file: string; text: string }[] {
  return execFileSync('git', ['ls-files', 'api', 'domain', 'indexer', 'jobs', 'internal'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'))
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

describe('api/problems/registry: one list of problem codes', () => {
  const sources = productionSources();

  it('has every code the code base names (PROBLEMS.X), and every code is used somewhere', () => {
    const used = new Set<string>();
    for (const { text } of sources)
      for (const line of text.split('\n').filter((l) => !/^\s*(\*|\/\/|\/\*)/.test(l)))
        for (const m of line.matchAll(/\bPROBLEMS\.([A-Z][A-Z0-9_]*)/g)) used.add(m[1]!);
    expect([...used].filter((code) => !(code in PROBLEMS))).to.deep.equal([]);
    // Codes no line names but a mapping reaches: the generic problem of a bare 4xx (problemOfStatus).
    const generic = new Set([400, 401, 403, 404, 405, 409, 413, 415, 422, 429].map((s) => problemOfStatus(s).code));
    expect(Object.keys(PROBLEMS).filter((code) => !used.has(code) && !generic.has(code as ProblemCode))).to.deep.equal(
      [],
    );
  });

  it('is the only way to build an AppError: no status or code literal as the first argument', () => {
    const offenders: string[] = [];
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/new AppError\(\s*([^,\s)]+)/g)) {
        if (!m[1]!.startsWith('PROBLEMS.') && !/^problem\b/.test(m[1]!))
          offenders.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${m[1]}`);
      }
    }
    expect(offenders).to.deep.equal([]);
  });

  it('names each code once per status, with a known status, a title and a description', () => {
    for (const [code, p] of Object.entries(PROBLEMS)) {
      expect(p.code, code).to.equal(code);
      expect(code, code).to.match(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(STATUS_TITLES[p.status], `${code} status`).to.be.a('string');
      expect(p.title.length, `${code} title`).to.be.greaterThan(2);
      expect(p.description.length, `${code} description`).to.be.greaterThan(40);
      expect(problemOfSlug(problemSlug(p.code)), code).to.equal(p);
      expect(problemTypeOf(p.code)).to.equal(`/problems/${code.toLowerCase().replace(/_/g, '-')}`);
    }
    const slugs = Object.values(PROBLEMS).map((p) => problemSlug(p.code));
    expect(new Set(slugs).size).to.equal(slugs.length);
    expect(problemOfSlug('no-such-problem')).to.equal(null);
  });

  it('keeps the wire values tests and clients rely on', () => {
    expect(problemTypeOf('VALIDATION_FAILED')).to.equal('/problems/validation-failed');
    expect(PROBLEMS.VALIDATION_FAILED).to.include({ status: 400, title: 'Bad Request' });
    expect(PROBLEMS.CONFLICT).to.include({ status: 409, title: 'Conflict' });
    expect(PROBLEMS.CROSS_SITE_REQUEST_REFUSED).to.include({ status: 403, title: 'Cross-site request refused' });
    // One code per meaning: a bare 429 from a library is RATE_LIMITED, as our own limiters answer.
    expect(problemOfStatus(429).code).to.equal('RATE_LIMITED');
  });

  it('answers an AppError with its entry’s status, or one of its declared other statuses only', () => {
    const full = new AppError(PROBLEMS.TOO_MANY_STREAMS, 'full', { status: 503 });
    expect(full).to.include({ status: 503, code: 'TOO_MANY_STREAMS', retryable: true, userError: false });
    expect(new AppError(PROBLEMS.TOO_MANY_STREAMS, 'yours')).to.include({ status: 429, userError: true });
    expect(() => new AppError(PROBLEMS.CONFLICT, 'x', { status: 500 })).to.throw(TypeError, /CONFLICT/);
    expect(new AppError(PROBLEMS.WEB_NOT_BUILT, 'build it')).to.include({ status: 503, retryable: false });
  });
});
