import { useEffect, useRef, useState } from 'preact/hooks';

/** Typing pauses this long before the search applies (Enter applies at once). */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * A text filter applied as you type (debounced) and at once on Enter; it keeps focus and caret while
 * the view reloads, and follows the address when it changes from elsewhere (back button, Clear).
 */
export function SearchField({
  label,
  name,
  value,
  onApply,
}: {
  label: string;
  name: string;
  value: string;
  onApply: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const applied = useRef(value);
  const apply = useRef(onApply);
  apply.current = onApply;
  useEffect(() => {
    if (value !== applied.current) {
      applied.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const commit = (next: string) => {
    clearTimeout(timer.current);
    if (next.trim() === applied.current) return;
    applied.current = next.trim();
    apply.current(next);
  };
  return (
    <label class="field">
      <span>{label}</span>
      <input
        type="search"
        name={name}
        value={text}
        autoComplete="off"
        onInput={(e) => {
          const next = (e.currentTarget as HTMLInputElement).value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(next), SEARCH_DEBOUNCE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit((e.currentTarget as HTMLInputElement).value);
          }
        }}
      />
    </label>
  );
}
