import { useEffect, useRef } from 'react';

/** The suite's output as it streams: a polite live log that keeps its last line in view. */
export function SuiteOutput({ label, lines }: { label: string; lines: string[] }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines.length]);
  return (
    <pre
      ref={ref}
      className="testing-output"
      role="log"
      aria-live="polite"
      aria-label={label}
      // Scrollable content must be reachable by keyboard.
      tabIndex={0}
    >
      {lines.length ? lines.join('\n') : 'No output yet.'}
    </pre>
  );
}
