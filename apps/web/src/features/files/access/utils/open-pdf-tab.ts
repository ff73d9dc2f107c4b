/**
 * Opens a decrypted PDF in a new tab that carries the file's name. Chromium's PDF viewer titles a
 * document by its /Title metadata, else by the last part of its URL, which for an object URL is a
 * random id. So the new tab is a page of this origin (about:blank, written from here: it keeps
 * this page's CSP) whose <title> is the name, showing the browser's PDF viewer in a frame of the
 * object URL (`frame-src blob:`). No URL carries the name, and nothing leaves the device. The tab
 * is given no opener once written. False when the browser blocked the pop-up.
 */
export function openPdfTab(url: string, name: string): boolean {
  const tab = window.open('', '_blank');
  if (!tab) return false;
  try {
    const doc = tab.document;
    doc.title = name;
    const frame = doc.createElement('iframe');
    frame.src = url;
    frame.title = name;
    // CSSOM, not a style attribute: the CSP (style-src 'self') allows it.
    frame.style.cssText = 'position: fixed; inset: 0; width: 100%; height: 100%; border: 0';
    doc.body.style.margin = '0';
    doc.body.replaceChildren(frame);
  } catch {
    // A tab this page may not write to: the PDF itself, under its object URL's name.
    tab.location.href = url;
  } finally {
    tab.opener = null;
  }
  return true;
}
