import { describe, expect, it } from 'vitest';
import { collectFileTags, filterFiles } from './filter-files';
import { cardTags, fileKind, formatFileSize, formatSizeKb } from './file-format';
import { ACCEPT_ATTRIBUTE, FILE_MESSAGES, parseTags, resolveMimeType, validateFile } from './file-rules';
import type { FileView } from '../types';
import type { FileDto } from '@vault/contracts';

const file = (name: string, size: number, type: string) => ({ name, size, type });
const MB = 1024 * 1024;

describe('file checks (spec section 5)', () => {
  it("refuses files over 100 MB: 'File size exceeds maximum allowed size of 100MB'", () => {
    expect(validateFile(file('big.pdf', 100 * MB, 'application/pdf'))).toBeNull();
    expect(validateFile(file('big.pdf', 100 * MB + 1, 'application/pdf'))).toBe(
      'File size exceeds maximum allowed size of 100MB',
    );
  });

  it("refuses types outside the allowed list: 'File type {type} is not allowed'", () => {
    for (const type of [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'application/pdf',
      'text/plain',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/zip',
      'application/x-zip-compressed',
    ]) {
      expect(validateFile(file('f', 10, type))).toBeNull();
    }
    expect(validateFile(file('page.html', 10, 'text/html'))).toBe('File type text/html is not allowed');
    expect(validateFile(file('movie.mp4', 10, 'video/mp4'))).toBe('File type video/mp4 is not allowed');
    expect(validateFile(file('run.exe', 10, ''))).toBe('File type unknown is not allowed');
    expect(validateFile(file('logo.svg', 10, 'image/svg+xml'))).toBe(
      FILE_MESSAGES.typeNotAllowed('image/svg+xml'),
    );
  });

  it('takes the type from the extension when the browser gives none', () => {
    expect(resolveMimeType(file('Budget.XLSX', 1, ''))).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(resolveMimeType(file('a.zip', 1, ''))).toBe('application/zip');
    expect(resolveMimeType(file('noext', 1, ''))).toBe('');
    expect(resolveMimeType(file('a.txt', 1, 'TEXT/PLAIN'))).toBe('text/plain');
    expect(validateFile(file('letter.docx', 1, ''))).toBeNull();
    expect(ACCEPT_ATTRIBUTE).toContain('.docx');
    expect(ACCEPT_ATTRIBUTE).toContain('application/x-zip-compressed');
  });

  it("refuses names over 255 characters: 'Filename is too long'", () => {
    expect(validateFile(file(`${'n'.repeat(251)}.txt`, 1, 'text/plain'))).toBeNull();
    expect(validateFile(file(`${'n'.repeat(252)}.txt`, 1, 'text/plain'))).toBe('Filename is too long');
  });

  it('checks size first, then type, then name', () => {
    expect(validateFile(file('x'.repeat(300), 200 * MB, 'video/mp4'))).toBe(FILE_MESSAGES.tooLarge);
    expect(validateFile(file('x'.repeat(300), 1, 'video/mp4'))).toBe('File type video/mp4 is not allowed');
  });

  it('tags: comma-separated, trimmed, no empties, no duplicates', () => {
    expect(parseTags(' work, taxes ,, work,2026 , ')).toEqual(['work', 'taxes', '2026']);
    expect(parseTags('')).toEqual([]);
    expect(parseTags('Work, work')).toEqual(['Work', 'work']);
  });
});

describe('file formatting (spec section 9)', () => {
  it('sizes in Bytes, KB, MB, GB, base 1024', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(1023)).toBe('1023 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * MB + 123_456)).toBe('5.12 MB');
    expect(formatFileSize(100 * MB)).toBe('100 MB');
    expect(formatFileSize(3 * 1024 * MB)).toBe('3 GB');
    expect(formatFileSize(5000 * 1024 * MB)).toBe('5000 GB');
  });

  it('the trash shows KB', () => {
    expect(formatSizeKb(512)).toBe('0.5 KB');
    expect(formatSizeKb(2048)).toBe('2 KB');
    expect(formatSizeKb(5 * MB)).toBe('5,120 KB');
  });

  it('icons by type, and up to 3 tags with +N more', () => {
    expect(fileKind('image/png')).toBe('image');
    expect(fileKind('application/pdf')).toBe('pdf');
    expect(fileKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'document',
    );
    expect(fileKind('application/vnd.ms-excel')).toBe('spreadsheet');
    expect(fileKind('application/x-zip-compressed')).toBe('archive');
    expect(fileKind('text/plain')).toBe('text');
    expect(fileKind('application/octet-stream')).toBe('other');
    expect(cardTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
  });
});

describe('search and tag filter', () => {
  const dto = (id: string) => ({ id }) as FileDto;
  const view = (
    id: string,
    name: string,
    tags: string[],
    status: FileView['status'] = 'ready',
  ): FileView => ({
    dto: dto(id),
    status,
    name,
    mimeType: 'text/plain',
    tags,
  });
  const items = [
    view('1', 'Tax Return 2025.pdf', ['taxes', 'home']),
    view('2', 'holiday.JPG', ['photos']),
    view('3', '', [], 'decrypting'),
    view('4', 'Encrypted File', [], 'failed'),
  ];

  it('without filters shows everything; search is case-insensitive on the decrypted name', () => {
    expect(filterFiles(items, { searchQuery: '', tag: null })).toHaveLength(4);
    expect(filterFiles(items, { searchQuery: 'tax', tag: null }).map((f) => f.dto.id)).toEqual(['1']);
    expect(filterFiles(items, { searchQuery: '  .jpg ', tag: null }).map((f) => f.dto.id)).toEqual(['2']);
    expect(filterFiles(items, { searchQuery: 'encrypted', tag: null })).toEqual([]);
  });

  it("tag filter ('All tags' is null), built from the decrypted tags, sorted", () => {
    expect(filterFiles(items, { searchQuery: '', tag: 'photos' }).map((f) => f.dto.id)).toEqual(['2']);
    expect(filterFiles(items, { searchQuery: 'tax', tag: 'photos' })).toEqual([]);
    expect(collectFileTags(items)).toEqual(['home', 'photos', 'taxes']);
  });
});
