import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so for a moment (announced: the label lives in a status region). */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    setTimeout(() => setDone(null), 2000);
  };
  return (
    <button
      type="button"
      class="copy"
      data-testid="copy"
      data-copy={text}
      aria-label={`Copy ${what} ${text}`}
      title={`Copy ${what}`}
      onClick={() => void copy()}
    >
      <span aria-hidden="true">{done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : 'Copy'}</span>
      <span class="visually-hidden" role="status">
        {done === 'copied' ? `${what} copied` : done === 'failed' ? `Could not copy the ${what}` : ''}
      </span>
    </button>
  );
}
