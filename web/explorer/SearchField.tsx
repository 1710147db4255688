import { useEffect, useRef, useState } from 'preact/hooks';

/** Typing pauses this long before the search (or a minimum or maximum) applies (Enter applies at once). */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * A text or number filter applied as you type (debounced) and at once on Enter; it keeps focus and
 * caret while the view reloads, and follows the address when it changes from elsewhere (back button,
 * Clear). A number the browser cannot read yet ("1e", "-") waits for the next key instead of
 * clearing the filter.
 */
export function SearchField({
  label,
  name,
  value,
  onApply,
  type = 'search',
}: {
  label: string;
  name: string;
  value: string;
  onApply: (value: string) => void;
  type?: 'search' | 'number';
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
  const commit = (next: string, unreadable = false) => {
    clearTimeout(timer.current);
    if (unreadable || next.trim() === applied.current) return;
    applied.current = next.trim();
    apply.current(next);
  };
  return (
    <label class="field">
      <span>{label}</span>
      <input
        // preact types each `type` apart (a search field may name a `list`): one attribute set for both here
        type={type as 'number'}
        name={name}
        value={text}
        autoComplete="off"
        inputMode={type === 'number' ? 'decimal' : undefined}
        step={type === 'number' ? 'any' : undefined}
        onInput={(e) => {
          const input = e.currentTarget as HTMLInputElement;
          const next = input.value;
          const unreadable = input.validity.badInput;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(next, unreadable), SEARCH_DEBOUNCE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            const input = e.currentTarget as HTMLInputElement;
            commit(input.value, input.validity.badInput);
          }
        }}
      />
    </label>
  );
}
