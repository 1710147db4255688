import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../shared/api.js';
import '../shared/styles.css';
import { useApi } from '../shared/useApi.js';
import { CampaignDetail } from './CampaignDetail.js';
import { OpportunityDetail } from './OpportunityDetail.js';
import { SearchView } from './SearchView.js';
import { parseState, toSearch, type ExplorerState } from './state.js';
import type { Chain, Protocol } from './types.js';

/** The explorer: the URL query is the state; navigation pushes history entries (back/forward work). */
function App() {
  const [state, setState] = useState<ExplorerState>(() => parseState(location.search));
  useEffect(() => {
    const onPop = () => setState(parseState(location.search));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const navigate = (next: ExplorerState, options: { replace?: boolean } = {}) => {
    const search = toSearch(next);
    if (search !== location.search)
      history[options.replace ? 'replaceState' : 'pushState'](null, '', `${location.pathname}${search}`);
    setState(next);
    if (next.opportunity !== state.opportunity || next.campaign !== state.campaign) scrollTo(0, 0);
  };
  const reference = useApi('reference', async (signal) => {
    const [chains, protocols] = await Promise.all([
      apiGet<Chain[]>('/v4/chains', {}, { signal }),
      apiGet<Protocol[]>('/v4/protocols', { items: 100 }, { signal }),
    ]);
    return { chains, protocols };
  });
  return (
    <>
      <header class="top">
        <h1>
          <a href="/">Campaign rewards explorer</a>
        </h1>
        <nav>
          <a href="/ops">Operations</a>
        </nav>
      </header>
      <main id="main">
        {state.opportunity ? (
          <OpportunityDetail state={state} navigate={navigate} chains={reference.data?.chains ?? []} />
        ) : state.campaign ? (
          <CampaignDetail state={state} navigate={navigate} chains={reference.data?.chains ?? []} />
        ) : (
          <SearchView
            state={state}
            navigate={navigate}
            chains={reference.data?.chains ?? []}
            protocols={reference.data?.protocols ?? []}
          />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
