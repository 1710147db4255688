import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { CAMPAIGN_VISIBILITY_APPLIED } from '../../../api/search/campaignIndexGuard.js';
import { searchOnce } from '../../../api/search/searchOnce.js';
import { searchPage } from '../../../api/search/searchPage.js';

/** The only module that may search campaign documents (it applies the caller's visibility). */
const CAMPAIGN_SEARCH = 'api/visibility/campaignSearch.ts';

const apiSources = () =>
  execFileSync('git', ['ls-files', 'api'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));

/** An ES client that records what it is asked and answers an empty result. */
function recordingEs() {
  const searched: string[] = [];
  const es = {
    search: async (req: { index: string }) => {
      searched.push(req.index);
      return { timed_out: false, hits: { hits: [] } };
    },
  };
  return { es, searched };
}

describe('architecture: campaign documents are searched only through the visibility layer', () => {
  it('names the campaigns index and the visibility token only in api/visibility/campaignSearch.ts', () => {
    const offenders: string[] = [];
    for (const file of apiSources()) {
      if (file === CAMPAIGN_SEARCH || file.startsWith('api/search/')) continue;
      const text = readFileSync(file, 'utf8');
      if (/CAMPAIGN_VISIBILITY_APPLIED/.test(text)) offenders.push(`${file}: uses the visibility token`);
      if (/indexNames\([^)]*'campaigns'\)\.read/.test(text)) offenders.push(`${file}: names the campaigns read alias`);
      if (/indexNames\([^)]*'campaigns'\)/.test(text)) offenders.push(`${file}: names a campaigns index`);
    }
    expect(offenders).to.deep.equal([]);
  });

  it('refuses, before any request, a search of a campaigns index that did not come through it', async () => {
    const { es, searched } = recordingEs();
    const deps = { es, config: { esRequestTimeoutMs: 1000 } } as never;
    for (const index of ['rewards-campaigns', 'rewards-campaigns_write', 'rewards-campaigns_v3']) {
      let refused: unknown;
      await searchOnce(deps, index, { query: { match_all: {} } }).catch((e: unknown) => (refused = e));
      expect(String(refused)).to.match(/bypasses campaign visibility/);
      await searchPage({
        es: es as never,
        index,
        query: { match_all: {} },
        sort: [{ id: 'asc' }],
        page: 0,
        items: 1,
        timeoutMs: 1000,
      }).catch((e: unknown) => (refused = e));
      expect(String(refused)).to.match(/bypasses campaign visibility/);
    }
    expect(searched).to.deep.equal([]);
    await searchOnce(deps, 'rewards-opportunities', { query: { match_all: {} } });
    await searchOnce(deps, 'rewards-campaigns', { query: { match_all: {} } }, CAMPAIGN_VISIBILITY_APPLIED);
    expect(searched).to.deep.equal(['rewards-opportunities', 'rewards-campaigns']);
  });
});
