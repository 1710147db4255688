import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, apiFetch } from '../shared/api.js';
import '../shared/styles.css';
import './ops.css';
import { AttentionList } from './AttentionList.js';
import { DependencyTable } from './DependencyTable.js';
import { DISPUTES_SHOWN, DisputeHistory } from './DisputeHistory.js';
import { freshnessText, seconds } from './time.js';
import { JobRow, type JobActions } from './JobRow.js';
import {
  ATTENTION_ORDER,
  type ActionResult,
  type ChainDisputes,
  type Dependencies,
  type Dispute,
  type Job,
  type JobsOverview,
} from './types.js';

/** The back-office token stays in this tab's sessionStorage only, sent as the authorization header. */
const TOKEN_KEY = 'backOfficeToken';
const REFRESH_MS = 10_000;

function TokenForm({ onToken, error }: { onToken: (token: string) => void; error?: string }) {
  return (
    <form
      class="token-form"
      onSubmit={(e) => {
        e.preventDefault();
        onToken(String(new FormData(e.currentTarget).get('token') ?? '').trim());
      }}
    >
      <label class="field">
        <span>Back-office token</span>
        {/* biome-ignore lint/a11y/noAutofocus: the sign-in form is the whole page; its only field takes the focus */}
        <input type="password" name="token" autoComplete="off" required autoFocus />
      </label>
      <button type="submit">Sign in</button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** Jobs most urgent first (failing, lagging, paused, never run, ok), catalog order within each. */
const byAttention = (jobs: Job[]) =>
  jobs
    .map((job, i) => ({ job, i }))
    .sort(
      (a, b) =>
        ATTENTION_ORDER.indexOf(a.job.attention.status) - ATTENTION_ORDER.indexOf(b.job.attention.status) || a.i - b.i,
    )
    .map(({ job }) => job);

/**
 * Operations: what needs attention first (unreachable dependencies, failing and lagging jobs), every
 * dependency's state, each chain's root disputes, then every job most urgent first with next run, last run and lag per chain;
 * run now, pause, resume, schedule, each answered beside its buttons.
 */
function App() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [overview, setOverview] = useState<JobsOverview | null>(null);
  const [dependencies, setDependencies] = useState<Dependencies | null>(null);
  const [disputes, setDisputes] = useState<ChainDisputes[] | null>(null);
  /** A failure to load the page's data or to sign in: about the page as a whole, so shown at its top. */
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  /** Each job's last action result, shown beside that job's buttons. */
  const [results, setResults] = useState<Record<string, ActionResult>>({});
  const [busy, setBusy] = useState(false);
  /**
   * The token signed in now: an answer to a request made with an earlier one (a refused token's second
   * request answering after the operator typed the right one) must not sign the new one out.
   */
  const current = useRef(token);
  current.current = token;

  const call = useCallback(
    async <T,>(path: string, init: RequestInit = {}): Promise<T> => {
      try {
        return await apiFetch<T>(path, {
          ...init,
          headers: { authorization: token!, ...(init.body ? { 'content-type': 'application/json' } : {}) },
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          if (current.current === token) {
            sessionStorage.removeItem(TOKEN_KEY);
            setToken(null);
          }
          throw new ApiError(401, 'The back-office token was refused: check it and sign in again.');
        }
        throw error;
      }
    },
    [token],
  );

  const load = useCallback(async () => {
    if (!token) return;
    try {
      const [jobs, deps] = await Promise.all([
        call<JobsOverview>('/v4/internal/jobs'),
        call<Dependencies>('/v4/internal/dependencies'),
      ]);
      // Each chain's latest disputes (public reads, the chains as the dependencies list them).
      const chainDisputes = await Promise.all(
        deps.chains.map(async (c) => ({
          chainId: c.id,
          name: c.name,
          // A failed read is told in its chain's place; it never hides the jobs.
          ...(await call<Dispute[]>(`/v4/disputes/${c.id}?items=${DISPUTES_SHOWN}`).then(
            (disputes) => ({ disputes }),
            (error: Error) => ({ disputes: [], error: error.message }),
          )),
        })),
      );
      if (current.current !== token) return;
      setOverview(jobs);
      setDependencies(deps);
      setDisputes(chainDisputes);
      setMessage(null);
    } catch (error) {
      // Not about another token signed in since (the refusal itself signed this one out: still told).
      if (current.current === null || current.current === token)
        setMessage({ text: (error as Error).message, error: true });
    }
  }, [token, call]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const act = async (name: string, label: string, fn: () => Promise<unknown>) => {
    setBusy(true);
    setResults((r) => ({ ...r, [name]: { text: `${label}…`, error: false } }));
    try {
      const result = await fn();
      setResults((r) => ({
        ...r,
        [name]: { text: typeof result === 'string' ? result : `${label}: done`, error: false },
      }));
      await load();
    } catch (error) {
      setResults((r) => ({ ...r, [name]: { text: `${label}: ${(error as Error).message}`, error: true } }));
    } finally {
      setBusy(false);
    }
  };
  const actions: JobActions = {
    run: (name) =>
      act(name, `run ${name}`, async () => {
        const r = await call<{ status: string; error?: string; run?: { durationMs: number | null } }>(
          `/v4/internal/jobs/${name}/run`,
          { method: 'POST' },
        );
        return `run ${name}: ${r.status}${r.error ? ` (${r.error})` : ''}`;
      }),
    setPaused: (name, paused) =>
      act(name, `${paused ? 'pause' : 'resume'} ${name}`, () =>
        call(`/v4/internal/jobs/${name}/${paused ? 'pause' : 'resume'}`, { method: 'POST' }),
      ),
    schedule: (name, cron) =>
      act(name, `schedule ${name}`, () =>
        call(`/v4/internal/jobs/${name}/schedule`, { method: 'PUT', body: JSON.stringify({ cron }) }),
      ),
  };

  const signIn = (value: string) => {
    sessionStorage.setItem(TOKEN_KEY, value);
    setMessage(null);
    setToken(value);
  };
  const signOut = () => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
    setOverview(null);
    setDependencies(null);
    setDisputes(null);
    setResults({});
  };

  return (
    <>
      <header class="top">
        <h1>
          <a href="/ops">Operations</a>
        </h1>
        <nav>
          <a href="/">Explorer</a>
          {token && (
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          )}
        </nav>
      </header>
      <main id="main">
        {!token ? (
          <TokenForm onToken={signIn} error={message?.error ? message.text : undefined} />
        ) : (
          <>
            {message && (
              <p class={message.error ? 'error' : 'notice'} role="alert" data-testid="ops-message">
                {message.text}
              </p>
            )}
            {overview && <AttentionList items={overview.attention} />}
            {dependencies && <DependencyTable dependencies={dependencies} />}
            {overview && (
              <dl class="totals" data-testid="ops-summary">
                <div>
                  <dt>Outbox depth</dt>
                  <dd data-testid="ops-outbox">
                    {overview.outbox.depth}
                    {overview.outbox.oldestAgeSeconds === null
                      ? ''
                      : ` (oldest ${seconds(overview.outbox.oldestAgeSeconds)})`}
                  </dd>
                </div>
                <div>
                  <dt>Freshness p50 / p95</dt>
                  <dd data-testid="ops-freshness">{freshnessText(overview.freshness)}</dd>
                </div>
                <div>
                  <dt>Checked</dt>
                  <dd>{overview.checkedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</dd>
                </div>
                <div>
                  <dt>&nbsp;</dt>
                  <dd>
                    <button type="button" onClick={() => void load()}>
                      Refresh
                    </button>
                  </dd>
                </div>
              </dl>
            )}
            {disputes && <DisputeHistory chains={disputes} />}
            <h2 class="ops-jobs-title">Jobs, most urgent first</h2>
            <div class="jobs" aria-busy={!overview}>
              {overview &&
                byAttention(overview.jobs).map((job) => (
                  <JobRow
                    key={`${job.name}:${job.schedule}`}
                    job={job}
                    actions={actions}
                    busy={busy}
                    result={results[job.name]}
                  />
                ))}
            </div>
          </>
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
