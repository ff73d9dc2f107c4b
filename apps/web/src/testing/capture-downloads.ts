/** Captures files "downloaded" through an object URL and an anchor click (jsdom has neither). */
export function captureDownloads(): { files: { name: string; blob: Blob }[]; restore: () => void } {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  const urlApi = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
  const saved = { create: urlApi.createObjectURL, revoke: urlApi.revokeObjectURL };
  let n = 0;
  urlApi.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob);
    return url;
  };
  urlApi.revokeObjectURL = () => undefined;
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  };
  return {
    files,
    restore: () => {
      urlApi.createObjectURL = saved.create;
      urlApi.revokeObjectURL = saved.revoke;
      HTMLAnchorElement.prototype.click = click;
    },
  };
}
