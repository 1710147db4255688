import { useState } from 'preact/hooks';
import { type ListedOperation, tryUrl } from './openapi.js';

/** What the try-out answered: status, type and the first 20 000 characters of the body. */
type Answer = { status: number; type: string; body: string; ms: number } | { error: string };

const LIMIT = 20_000;

/** Sends one operation to this API with the parameters typed in (and the page's credentials) and shows the answer. */
export function TryIt({ op, credentials }: { op: ListedOperation; credentials: Record<string, string> }) {
  const parameters = (op.parameters ?? []).filter((p) => p.in !== 'header');
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    const target = tryUrl(op.path, parameters, values);
    if ('missing' in target) return setAnswer({ error: `Fill in ${target.missing.join(', ')} first.` });
    setBusy(true);
    const started = performance.now();
    try {
      const headers: Record<string, string> = { accept: 'application/json', ...credentials };
      if (op.requestBody && body.trim()) headers['content-type'] = 'application/json';
      const res = await fetch(target.url, {
        method: op.method.toUpperCase(),
        headers,
        body: op.requestBody && body.trim() ? body : undefined,
      });
      const text = await res.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON (CSV, text): shown as it came
      }
      setAnswer({
        status: res.status,
        type: res.headers.get('content-type') ?? '',
        body: shown.length > LIMIT ? `${shown.slice(0, LIMIT)}\n… (${shown.length - LIMIT} more characters)` : shown,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      setAnswer({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="try-it"
      data-testid="try-it"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h4>Try it</h4>
      {parameters.map((p) => (
        <label class="field" key={`${p.in}:${p.name}`}>
          <span>
            {p.name}
            {p.in === 'path' || p.required ? ' (required)' : ''}
          </span>
          <input
            name={p.name}
            value={values[p.name] ?? ''}
            autoComplete="off"
            onInput={(e) => setValues({ ...values, [p.name]: (e.currentTarget as HTMLInputElement).value })}
          />
        </label>
      ))}
      {op.requestBody && (
        <label class="field">
          <span>Body (JSON)</span>
          <textarea
            name="body"
            rows={6}
            value={body}
            onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)}
          />
        </label>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Sending…' : `Send ${op.method.toUpperCase()}`}
      </button>
      {answer &&
        ('error' in answer ? (
          <p class="error" role="alert">
            {answer.error}
          </p>
        ) : (
          <div class="answer" data-testid="try-answer" data-status={answer.status}>
            <p>
              <strong>{answer.status}</strong>{' '}
              <span class="muted">
                {answer.type} · {answer.ms} ms
              </span>
            </p>
            <pre>{answer.body}</pre>
          </div>
        ))}
    </form>
  );
}
