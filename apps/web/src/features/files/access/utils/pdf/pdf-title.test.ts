// @vitest-environment node
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { FileView } from '../../../types';
import { buildPreview } from '../build-preview';
import { MemorySink } from '../fetch-decrypted';
import { pdfTextString, pdfTitleUpdate } from './pdf-title';

const enc = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const BODY = [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  '<< /Length 40 >>\nstream\nBT /F1 24 Tf 72 720 Td (hello) Tj ET    \nendstream',
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  '<< /Title (Old title) >>',
];

/** A PDF with a cross-reference table; `trailerExtra` goes into its trailer. */
function tablePdf(trailerExtra = ''): Uint8Array {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  BODY.forEach((b, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${b}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${BODY.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${BODY.length + 1} /Root 1 0 R /Info 6 0 R /ID [<0123ABCD><0123ABCD>]${trailerExtra} >>\n`;
  return enc(`${out}startxref\n${xref}\n%%EOF\n`);
}

/** The same document with a cross-reference stream (PDF 1.5) instead of a table. */
function streamPdf(): Uint8Array {
  let out = '%PDF-1.5\n';
  const offsets: number[] = [];
  BODY.slice(0, 5).forEach((b, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${b}\nendobj\n`;
  });
  const xref = out.length;
  const rows = [[0, 0, 65535], ...offsets.map((o) => [1, o, 0]), [1, xref, 0]];
  const data = rows
    .map(([t, o, g]) =>
      String.fromCharCode(
        t!,
        (o! >>> 24) & 255,
        (o! >>> 16) & 255,
        (o! >>> 8) & 255,
        o! & 255,
        g! >> 8,
        g! & 255,
      ),
    )
    .join('');
  out += `6 0 obj\n<< /Type /XRef /Size 7 /Root 1 0 R /W [1 4 2] /DecodeParms << /Columns 7 >> /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\n`;
  return enc(`${out}startxref\n${xref}\n%%EOF\n`);
}

/** What pdf.js reads: the /Title, the page count, and the first page's size (the document is intact). */
async function titleOf(bytes: Uint8Array): Promise<{ title: unknown; pages: number; view: number[] }> {
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, stopAtErrors: true }).promise;
  const { info } = (await doc.getMetadata()) as { info: { Title?: unknown } };
  const { view } = await doc.getPage(1);
  const pages = doc.numPages;
  await doc.destroy();
  return { title: info.Title, pages, view };
}

const withUpdate = (bytes: Uint8Array, title: string) => {
  const update = pdfTitleUpdate(bytes, title);
  expect(update).not.toBeNull();
  const all = new Uint8Array(bytes.length + update!.length);
  all.set(bytes);
  all.set(update!, bytes.length);
  return all;
};

describe('pdfTitleUpdate (the browser viewer titles the PDF with the file name)', () => {
  const name = 'Quarterly report ✓ été 2026.pdf';

  it('appends an information dictionary with the name and a cross-reference table, for a file with a table', async () => {
    const pdf = tablePdf();
    expect(await titleOf(pdf)).toMatchObject({ title: 'Old title' });
    expect(await titleOf(withUpdate(pdf, name))).toEqual({ title: name, pages: 1, view: [0, 0, 612, 792] });
    const tail = new TextDecoder().decode(pdfTitleUpdate(pdf, name)!);
    expect(tail).toContain('/ID [<0123ABCD><0123ABCD>]');
    expect(tail).toMatch(/\/Prev \d+/);
  });

  it('appends a cross-reference stream for a file with one', async () => {
    const pdf = streamPdf();
    expect((await titleOf(pdf)).title).toBeUndefined();
    expect(await titleOf(withUpdate(pdf, name))).toEqual({ title: name, pages: 1, view: [0, 0, 612, 792] });
  });

  it('leaves alone what it cannot update safely: not a PDF, an encrypted one, an end it cannot read', () => {
    expect(pdfTitleUpdate(enc('just text, not a PDF at all, long enough'), name)).toBeNull();
    expect(pdfTitleUpdate(tablePdf(' /Encrypt 9 0 R'), name)).toBeNull();
    const pdf = new TextDecoder('latin1').decode(tablePdf());
    expect(pdfTitleUpdate(enc(pdf.replace(/startxref\n\d+/, 'startxref\n999999')), name)).toBeNull();
    expect(pdfTitleUpdate(enc(pdf.replace('%%EOF', '')), name)).toBeNull();
    expect(pdfTitleUpdate(enc(pdf.replace('/Root 1 0 R', '')), name)).toBeNull();
  });

  it('writes any Unicode name as a UTF-16BE hex string', () => {
    expect(pdfTextString('A✓')).toBe('<FEFF00412713>');
    expect(pdfTextString('😀')).toBe('<FEFFD83DDE00>');
  });
});

describe('buildPreview of a PDF', () => {
  it('gives the browser viewer the PDF titled with the file name, and keeps the exact bytes for Download', async () => {
    const pdf = tablePdf();
    const sink = new MemorySink();
    await sink.write(pdf.slice());
    await sink.close();
    const urls: Blob[] = [];
    const file = { name: 'Report.pdf', mimeType: 'application/pdf' } as FileView;
    const built = buildPreview(sink, file, (blob) => {
      urls.push(blob);
      return `blob:test/${urls.length}`;
    });

    expect(built.content).toMatchObject({ kind: 'pdf', url: 'blob:test/1' });
    expect(new Uint8Array(await built.blob.arrayBuffer())).toEqual(pdf);
    const viewed = new Uint8Array(await urls[0]!.arrayBuffer());
    expect(viewed.subarray(0, pdf.length)).toEqual(pdf);
    expect((await titleOf(viewed)).title).toBe('Report.pdf');
    expect(urls[0]!.type).toBe('application/pdf');
  });
});
