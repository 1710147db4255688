/** A description of the document as text: `code` spans as code, blank lines as paragraphs (no HTML is interpreted). */
export function Prose({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <>
      {text.split(/\n{2,}/).map((para, i) => (
        <p key={i}>
          {para
            .split(/(`[^`]+`)/)
            .map((part, k) =>
              part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
                <code key={k}>{part.slice(1, -1)}</code>
              ) : (
                part
              ),
            )}
        </p>
      ))}
    </>
  );
}
