import { hasPdfHeader } from './pdf-header';

/**
 * Chromium's PDF viewer titles a document (its toolbar, and the tab when the PDF is the page) with
 * the PDF's /Title, else with the last part of its URL: for an object URL, a random id. So the
 * browser viewer is given the PDF with an incremental update appended (PDF 32000-1, 7.5.6): a new
 * document information dictionary whose /Title is the file's name, and a cross-reference section
 * of the same kind as the file's own (a table, or a stream) that points to it. The original bytes
 * are untouched (Download still saves exactly them); only what the viewer reads carries the name.
 *
 * Returns the bytes to append, or null when the file's end is not the plain structure this
 * writes against (no readable trailer, an encrypted file whose strings would need its key, ...):
 * the viewer then shows the file as it is.
 */
export function pdfTitleUpdate(bytes: Uint8Array, title: string): Uint8Array<ArrayBuffer> | null {
  if (!hasPdfHeader(bytes) || bytes.length < 32) return null;
  const tailStart = Math.max(0, bytes.length - 4096);
  const tail = latin1(bytes.subarray(tailStart));
  const at = tail.lastIndexOf('startxref');
  const prevMatch = /^startxref\s+(\d+)\s+%%EOF/.exec(tail.slice(at));
  if (at < 0 || !prevMatch) return null;
  const prev = Number(prevMatch[1]);
  if (!Number.isSafeInteger(prev) || prev <= 0 || prev >= bytes.length) return null;

  // The last cross-reference section: a table ("xref" ... "trailer" <<dict>>) or a stream object.
  const section = latin1(bytes.subarray(prev, Math.min(bytes.length, prev + 4096)));
  let dict: string | null;
  let stream: boolean;
  if (/^xref\s/.test(section)) {
    const trailer = tail.lastIndexOf('trailer', at);
    dict = trailer < 0 ? null : dictAt(tail, tail.indexOf('<<', trailer));
    stream = false;
  } else {
    const obj = /^\d+\s+\d+\s+obj\s*/.exec(section);
    dict = obj ? dictAt(section, obj[0].length) : null;
    stream = true;
    if (dict !== null && !/\/Type\s*\/XRef\b/.test(dict)) return null;
  }
  if (dict === null || /\/Encrypt\b/.test(dict)) return null;
  const size = Number(/\/Size\s+(\d+)/.exec(dict)?.[1]);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(dict)?.[1];
  if (!Number.isSafeInteger(size) || size <= 0 || !root) return null;
  const id = /\/ID\s*\[\s*<[0-9A-Fa-f\s]*>\s*<[0-9A-Fa-f\s]*>\s*\]/.exec(dict)?.[0] ?? '';

  const info = size;
  const infoOffset = bytes.length + 1; // after the newline that starts the update
  const infoObj = `\n${info} 0 obj\n<< /Title ${pdfTextString(title)} >>\nendobj\n`;
  const sectionOffset = bytes.length + infoObj.length;
  if (sectionOffset > 0xffffffff) return null;
  const trailerKeys = `/Root ${root} /Info ${info} 0 R /Prev ${prev}${id ? ` ${id}` : ''}`;

  if (!stream) {
    const table = `xref\n${info} 1\n${String(infoOffset).padStart(10, '0')} 00000 n \n`;
    const trailer = `trailer\n<< /Size ${info + 1} ${trailerKeys} >>\nstartxref\n${sectionOffset}\n%%EOF\n`;
    return fromLatin1(infoObj + table + trailer);
  }
  // A cross-reference stream (uncompressed) for the two new objects: the information dictionary and itself.
  const xrefObj = info + 1;
  const entries = new Uint8Array(14);
  const view = new DataView(entries.buffer);
  view.setUint8(0, 1);
  view.setUint32(1, infoOffset);
  view.setUint8(7, 1);
  view.setUint32(8, sectionOffset);
  const head =
    `${xrefObj} 0 obj\n<< /Type /XRef /Size ${xrefObj + 1} ${trailerKeys} /Index [${info} 2] ` +
    `/W [1 4 2] /Length ${entries.length} >>\nstream\n`;
  const end = `\nendstream\nendobj\nstartxref\n${sectionOffset}\n%%EOF\n`;
  return concat(fromLatin1(infoObj + head), entries, fromLatin1(end));
}

/** A PDF text string of any Unicode text: UTF-16BE with its byte order mark, as a hex string. */
export function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/** The dictionary `<< ... >>` that starts at `start` (nested dictionaries, strings and hex strings skipped), or null. */
function dictAt(text: string, start: number): string | null {
  if (start < 0 || !text.startsWith('<<', start)) return null;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text.startsWith('<<', i)) {
      depth++;
      i++;
    } else if (text.startsWith('>>', i)) {
      depth--;
      i++;
      if (depth === 0) return text.slice(start, i + 1);
    } else if (text[i] === '<') {
      const close = text.indexOf('>', i);
      if (close < 0) return null;
      i = close;
    } else if (text[i] === '(') {
      let nest = 0;
      for (; i < text.length; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '(') nest++;
        else if (text[i] === ')' && --nest === 0) break;
      }
    }
  }
  return null;
}

function latin1(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes);
}

function fromLatin1(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}

// Not @vault/crypto's concatBytes: importing that library on the page would pull it (and hash-wasm,
// about 270 kB) into the main bundle; the crypto runs in the Workers.
function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
