import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';

/**
 * Copy support report: builds the redacted report and copies it; where the clipboard is refused
 * (no permission, insecure context) a dialog shows it selected, ready for Ctrl+C.
 */
export function SupportReportButton({ getReport }: { getReport: () => Promise<string> }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [fallback, setFallback] = useState<string | null>(null);

  const copy = async () => {
    setBusy(true);
    setStatus('');
    try {
      const text = await getReport();
      try {
        if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
        await navigator.clipboard.writeText(text);
        setStatus('Support report copied');
      } catch {
        setFallback(text);
      }
    } catch (error) {
      setStatus(
        `The support report could not be built (${error instanceof Error ? error.message : 'error'}).`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="secondary" onClick={() => void copy()} disabled={busy}>
        Copy support report
      </Button>
      <span className="testing-muted" role="status" aria-live="polite">
        {status}
      </span>
      {fallback !== null ? <FallbackDialog text={fallback} onClose={() => setFallback(null)} /> : null}
    </>
  );
}

function FallbackDialog({ text, onClose }: { text: string; onClose: () => void }) {
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => area.current?.select(), []);
  return (
    <Dialog
      open
      title="Support report"
      description="The clipboard is not available here: the report is selected, copy it with Ctrl+C (⌘C)."
      onClose={onClose}
      initialFocusRef={area}
      size="lg"
    >
      <textarea
        ref={area}
        className="testing-support-report"
        aria-label="Support report"
        readOnly
        rows={16}
        value={text}
        onFocus={(e) => e.currentTarget.select()}
      />
    </Dialog>
  );
}
