/**
 * pdf.js (pdfjs-dist), loaded only when a PDF is previewed: the dynamic imports put the library in
 * its own chunk, and its worker is built as a separate worker file (Vite `?worker&url`: a hashed
 * `.js` asset, so the gateway serves it as JavaScript and caches it like the other assets) that
 * pdf.js starts as a same-origin module Worker. Nothing is fetched from anywhere else: no hosted
 * viewer, no CDN, no fonts or maps from a third party. Every PDF is parsed and drawn on this device.
 */
export type PdfJs = typeof import('pdfjs-dist');

let loading: Promise<PdfJs> | null = null;

export function loadPdfJs(): Promise<PdfJs> {
  if (!loading) {
    loading = Promise.all([
      import('pdfjs-dist'),
      import('pdfjs-dist/build/pdf.worker.min.mjs?worker&url'),
    ]).then(([pdfjs, worker]) => {
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      return pdfjs;
    });
    // A failed load (offline, a deploy that replaced the chunk) may be tried again.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
