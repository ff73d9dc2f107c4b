import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../../../../components/banner';
import { Button } from '../../../../../components/button';
import { Spinner } from '../../../../../components/spinner';
import { PREVIEW_TEXT } from '../../utils/access-messages';
import { loadPdfJs } from '../../utils/pdf/load-pdfjs';
import { openPdfTab } from '../../utils/open-pdf-tab';
import { hasPdfHeader } from '../../utils/pdf/pdf-header';
import { MessagePanel } from './message-panel';

/** Pages drawn by the secure viewer; the rest is a download away. */
export const PDF_MAX_PAGES = 50;
/** Spec section 9: "PDF viewer empty check 3 s (secure viewer)": the browser viewer gets as long to load. */
export const PDF_NATIVE_LOAD_TIMEOUT_MS = 3000;

export interface PdfPreviewProps {
  /** The decrypted PDF. */
  bytes: Uint8Array;
  /** An object URL of the same bytes (type application/pdf), for the browser's viewer and a new tab. */
  url: string;
  name: string;
  onDownload: () => void;
}

type Viewer = 'secure' | 'browser';
type SecureState =
  { status: 'loading' } | { status: 'ready'; pages: number } | { status: 'error'; message: string };

function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

/**
 * A decrypted PDF, shown without sending it anywhere. Two viewers (spec: "PDF has two viewers"):
 *
 * - secure (default): pdf.js parses the bytes in its own Worker and draws the pages on canvases;
 *   a file that does not start with "%PDF-" is stopped first ('Invalid PDF data - missing PDF
 *   header') with 'Force Load PDF (Skip Validation)' to try anyway;
 * - browser: the browser's built-in viewer in an iframe of the object URL.
 *
 * Both offer Download and Open in New Tab (a tab titled with the file's name, see openPdfTab). The spec's external viewers (Google Docs, a hosted
 * PDF.js) are left out on purpose: they would hand the decrypted file to a third party.
 */
export function PdfPreview({ bytes, url, name, onDownload }: PdfPreviewProps) {
  const [viewer, setViewer] = useState<Viewer>('secure');
  const [force, setForce] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [secure, setSecure] = useState<SecureState>({ status: 'loading' });
  const [nativeLoaded, setNativeLoaded] = useState(false);
  const [nativeTimedOut, setNativeTimedOut] = useState(false);
  const [popupBlocked, setPopupBlocked] = useState(false);
  const pagesRef = useRef<HTMLDivElement>(null);

  const headerMissing = !force && !hasPdfHeader(bytes);
  const nativeUnavailable =
    typeof navigator !== 'undefined' &&
    (navigator as Navigator & { pdfViewerEnabled?: boolean }).pdfViewerEnabled === false;

  // The secure viewer: pdf.js, loaded on first use, draws each page into a canvas.
  useEffect(() => {
    if (viewer !== 'secure' || headerMissing) return;
    const container = pagesRef.current;
    if (!container) return;
    let cancelled = false;
    let destroy: (() => Promise<void>) | null = null;
    container.replaceChildren();
    void (async () => {
      try {
        const pdfjs = await loadPdfJs();
        if (cancelled) return;
        // pdf.js takes ownership of (transfers) what it is given: hand it a copy. No eval (the CSP forbids it).
        const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false });
        destroy = () => task.destroy();
        const doc = await task.promise;
        if (cancelled) return;
        const count = Math.min(doc.numPages, PDF_MAX_PAGES);
        const dpr = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
        for (let n = 1; n <= count; n++) {
          const page = await doc.getPage(n);
          if (cancelled) return;
          const base = page.getViewport({ scale: 1 });
          const room = container.clientWidth > 0 ? container.clientWidth - 2 : 800;
          const scale = Math.min(2, Math.max(0.5, room / base.width));
          const viewport = page.getViewport({ scale: scale * dpr });
          const canvas = document.createElement('canvas');
          canvas.className = 'preview__pdf-page';
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          canvas.style.width = `${Math.floor(viewport.width / dpr)}px`;
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', `Page ${n} of ${doc.numPages}`);
          container.append(canvas);
          await page.render({ canvas, viewport }).promise;
          page.cleanup();
          if (cancelled) return;
          if (n === 1) setSecure({ status: 'ready', pages: doc.numPages });
        }
        if (count === 0) setSecure({ status: 'ready', pages: 0 });
      } catch (error) {
        if (!cancelled) setSecure({ status: 'error', message: PREVIEW_TEXT.pdfFailed(reasonOf(error)) });
      }
    })();
    return () => {
      cancelled = true;
      void destroy?.().catch(() => undefined);
      container.replaceChildren();
    };
  }, [viewer, headerMissing, bytes, attempt]);

  // The browser viewer: give it a few seconds to load, then say it failed.
  useEffect(() => {
    if (viewer !== 'browser' || nativeLoaded || nativeUnavailable) return;
    const timer = setTimeout(() => setNativeTimedOut(true), PDF_NATIVE_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [viewer, nativeLoaded, nativeUnavailable]);

  const switchViewer = () => {
    setViewer((v) => (v === 'secure' ? 'browser' : 'secure'));
    setSecure({ status: 'loading' });
    setNativeLoaded(false);
    setNativeTimedOut(false);
  };
  const retry = () => {
    setSecure({ status: 'loading' });
    setAttempt((a) => a + 1);
  };
  const forceLoad = () => {
    setSecure({ status: 'loading' });
    setForce(true);
  };
  // A tab titled with the file's name (the browser's viewer would show the object URL's id).
  const openInNewTab = () => setPopupBlocked(!openPdfTab(url, name));

  const fallbacks = (
    <>
      <Button variant="secondary" size="sm" onClick={openInNewTab}>
        Open in New Tab
      </Button>
      <Button variant="secondary" size="sm" onClick={onDownload}>
        Download PDF
      </Button>
    </>
  );

  let body;
  let viewing = false;
  if (viewer === 'secure' && headerMissing) {
    body = (
      <MessagePanel
        tone="danger"
        title={PREVIEW_TEXT.pdfUnavailable}
        actions={
          <>
            <Button size="sm" onClick={forceLoad}>
              {PREVIEW_TEXT.pdfForceLoad}
            </Button>
            {fallbacks}
          </>
        }
      >
        {PREVIEW_TEXT.pdfInvalidHeader}
      </MessagePanel>
    );
  } else if (viewer === 'secure' && secure.status === 'error') {
    body = (
      <MessagePanel
        tone="danger"
        title={PREVIEW_TEXT.pdfUnavailable}
        actions={
          <>
            <Button size="sm" onClick={retry}>
              Try Again
            </Button>
            <Button variant="secondary" size="sm" onClick={switchViewer}>
              Try Different Viewer
            </Button>
            {fallbacks}
          </>
        }
      >
        {secure.message}
      </MessagePanel>
    );
  } else if (viewer === 'browser' && (nativeUnavailable || (nativeTimedOut && !nativeLoaded))) {
    body = (
      <MessagePanel
        tone="danger"
        title={PREVIEW_TEXT.pdfUnavailable}
        actions={
          <>
            <Button variant="secondary" size="sm" onClick={switchViewer}>
              Try Different Viewer
            </Button>
            {fallbacks}
          </>
        }
      >
        {PREVIEW_TEXT.pdfNativeFailed}
      </MessagePanel>
    );
  } else if (viewer === 'browser') {
    viewing = true;
    body = (
      <iframe
        className="preview__pdf-frame"
        src={url}
        title={`${name} (browser PDF viewer)`}
        onLoad={() => setNativeLoaded(true)}
      />
    );
  } else {
    viewing = true;
    body = (
      <>
        {secure.status === 'loading' ? (
          <div className="preview__loading">
            <Spinner label="Rendering PDF..." />
            <span aria-hidden="true">Rendering PDF...</span>
          </div>
        ) : null}
        {secure.status === 'ready' && secure.pages > PDF_MAX_PAGES ? (
          <p className="preview__note" role="note">
            Showing the first {PDF_MAX_PAGES} of {secure.pages} pages. Download the PDF to see the rest.
          </p>
        ) : null}
      </>
    );
  }

  return (
    <div className="preview__pdf">
      {viewing ? (
        <div className="preview__tools" role="toolbar" aria-label="PDF controls">
          <span className="preview__viewer-name">
            {viewer === 'secure' ? 'Secure viewer (on this device)' : 'Browser viewer'}
          </span>
          <Button variant="ghost" size="sm" onClick={switchViewer}>
            Try Different Viewer
          </Button>
          {fallbacks}
        </div>
      ) : null}
      {popupBlocked ? <Banner tone="warning">{PREVIEW_TEXT.popupBlocked}</Banner> : null}
      {body}
      {viewer === 'secure' && !headerMissing && secure.status !== 'error' ? (
        <div ref={pagesRef} className="preview__pdf-pages" aria-label="PDF pages" />
      ) : null}
    </div>
  );
}
