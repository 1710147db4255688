import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../shared/api.js';
import '../shared/styles.css';
import { useApi } from '../shared/useApi.js';
import { AnalyticsView } from './AnalyticsView.js';
import { CampaignDetail } from './CampaignDetail.js';
import { focusWhenShown, headingSelector, openerSelector } from './focus.js';
import { Link, type HistoryEntry, type Navigate } from './Link.js';
import { OpportunityDetail } from './OpportunityDetail.js';
import { SearchView } from './SearchView.js';
import { DEFAULT_STATE, parseState, toSearch, type ExplorerState } from './state.js';
import type { Chain, Program, Protocol } from './types.js';

/** The view a state shows other than the search ("campaign:<id>", "opportunity:<id>", "analytics"), or null. */
const detailKey = (s: ExplorerState) =>
  s.opportunity
    ? `opportunity:${s.opportunity}`
    : s.campaign
      ? `campaign:${s.campaign}`
      : s.view === 'analytics'
        ? 'analytics'
        : null;

/**
 * Skips the header (and the filter panel on the search view) to the results, or to a detail
 * view's heading: focus moves there so the next Tab is the first result, not the first filter.
 */
function SkipLink({ state }: { state: ExplorerState }) {
  const key = detailKey(state);
  const target = key ? headingSelector(key) : '#results-list';
  return (
    <a
      class="skip"
      href={key ? '#main' : '#results-list'}
      onClick={(e) => {
        e.preventDefault();
        const el = document.querySelector<HTMLElement>(target) ?? document.getElementById('main');
        el?.focus();
        el?.scrollIntoView({ block: 'start' });
      }}
    >
      {key ? 'Skip to content' : 'Skip to results'}
    </a>
  );
}

/**
 * The explorer: the URL query is the state; navigation pushes history entries (back/forward work).
 * Opening a view moves focus to its heading once it shows; each entry remembers what was opened
 * from it, so coming back (Back link or the browser's) focuses that link again.
 */
function App() {
  const [state, setState] = useState<ExplorerState>(() => parseState(location.search));
  useEffect(() => {
    const onPop = () => {
      const next = parseState(location.search);
      setState(next);
      const opened = (history.state as HistoryEntry)?.opened;
      const key = detailKey(next);
      if (opened) focusWhenShown(openerSelector(opened));
      else if (key) focusWhenShown(headingSelector(key));
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const navigate: Navigate = (next, options = {}) => {
    const search = toSearch(next);
    if (search !== location.search) {
      const url = `${location.pathname}${search}`;
      if (options.replace) history.replaceState(history.state, '', url);
      else {
        if (options.opened) history.replaceState({ ...(history.state ?? {}), opened: options.opened }, '');
        history.pushState({ from: location.search } satisfies HistoryEntry, '', url);
      }
    }
    setState(next);
    const key = detailKey(next);
    if (key !== detailKey(state)) {
      scrollTo(0, 0);
      if (key) focusWhenShown(headingSelector(key));
    }
  };
  const reference = useApi('reference', async (signal) => {
    const [chains, protocols, programs] = await Promise.all([
      apiGet<Chain[]>('/v4/chains', {}, { signal }),
      apiGet<Protocol[]>('/v4/protocols', { items: 100 }, { signal }),
      // The programs filter is an extra: the explorer still works without it.
      apiGet<Program[]>('/v4/programs', { items: 50 }, { signal }).catch((): Program[] => []),
    ]);
    return { chains, protocols, programs };
  });
  return (
    <>
      <SkipLink state={state} />
      <header class="top">
        <h1>
          <a href="/">Campaign rewards explorer</a>
        </h1>
        <nav>
          <Link
            to={{ ...DEFAULT_STATE, view: 'analytics' }}
            navigate={navigate}
            testId="nav-analytics"
            current={detailKey(state) === 'analytics'}
          >
            Analytics
          </Link>
          <a href="/ops">Operations</a>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {state.opportunity ? (
          <OpportunityDetail state={state} navigate={navigate} chains={reference.data?.chains ?? []} />
        ) : state.campaign ? (
          <CampaignDetail state={state} navigate={navigate} chains={reference.data?.chains ?? []} />
        ) : state.view === 'analytics' ? (
          <AnalyticsView
            state={state}
            navigate={navigate}
            chains={reference.data?.chains ?? []}
            protocols={reference.data?.protocols ?? []}
          />
        ) : (
          <SearchView
            state={state}
            navigate={navigate}
            chains={reference.data?.chains ?? []}
            protocols={reference.data?.protocols ?? []}
            programs={reference.data?.programs ?? []}
          />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
