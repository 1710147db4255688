import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The drawing's width in CSS pixels, followed as the element resizes: the SVG is drawn 1:1 (viewBox =
 * its size), so its text keeps the stylesheet's pixel size on a phone as on a desktop. `initial` is
 * drawn before the first measure (and where there is no layout); `drawn` re-measures once the SVG shows.
 */
export function useWidth(drawn: boolean, initial: number): [ref: { current: SVGSVGElement | null }, width: number] {
  const ref = useRef<SVGSVGElement | null>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const w = Math.round(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [drawn]);
  return [ref, width];
}
