/**
 * Hands text made on this device to the browser as a file download (through a Blob: nothing is
 * sent anywhere). The object URL is revoked after `keepUrlMs`, once the download has started.
 */
export function downloadFile(
  fileName: string,
  body: string,
  { type = 'text/plain;charset=utf-8', keepUrlMs = 1000 }: { type?: string; keepUrlMs?: number } = {},
): void {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), keepUrlMs);
}
