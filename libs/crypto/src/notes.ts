/**
 * Protocol v1, "Notes".
 *
 *   dek        = 32 random bytes per note
 *   wrappedDEK = seal(vaultKey, dek, "vault:v1:note-key:" + noteId)
 *   title      = seal(dek, utf8(title),   "vault:v1:note:" + noteId + ":title")
 *   content    = seal(dek, utf8(content), "vault:v1:note:" + noteId + ":content")
 *   tags       = [ seal(dek, utf8(JSON.stringify(tags)), "vault:v1:note:" + noteId + ":tags") ]
 *   isEncrypted: true. An update re-seals every field with fresh IVs and the same dek.
 */
import { badFormat } from './errors';
import { utf8ToBytes } from './encoding';
import { AAD } from './aad';
import { decodeTags, decodeText, encodeTags } from './json-field';
import type { AesKeyInput } from './primitives';
import { open, openAesKey, requireSealed, seal } from './seal';
import { optionalIv, resealItemKey, sealNewItemKey } from './item-key';
import { requireItemId } from './ids';
import type { ItemId, Sealed } from './types';
import { requireObject, requireString, requireStringArray } from './validate';

export interface NotePlaintext {
  title: string;
  content: string;
  tags: string[];
}

export interface EncryptedNote {
  readonly id: ItemId;
  readonly wrappedDEK: Sealed;
  readonly title: Sealed;
  readonly content: Sealed;
  /** The spec's one-item tags list. */
  readonly tags: [Sealed];
  readonly isEncrypted: true;
}

/** What decryptNote / updateNote accept: the server's JSON as is (every field is checked at run time). */
export interface EncryptedNoteInput {
  readonly id: string;
  readonly wrappedDEK: string;
  readonly title: string;
  readonly content: string;
  readonly tags: readonly string[];
  readonly isEncrypted: boolean;
}

export interface NoteFieldIvs {
  title?: Uint8Array;
  content?: Uint8Array;
  tags?: Uint8Array;
}

/** Tests only: fixed dek and IVs make the output reproducible. */
export interface EncryptNoteOptions {
  dek?: Uint8Array;
  ivs?: NoteFieldIvs & { dek?: Uint8Array };
}

function checkPlaintext(p: unknown): NotePlaintext {
  const o = requireObject(p, 'note plaintext');
  return {
    title: requireString(o['title'], 'note title'),
    content: requireString(o['content'], 'note content'),
    tags: requireStringArray(o['tags'], 'note tags'),
  };
}

async function sealFields(dek: CryptoKey, noteId: ItemId, p: NotePlaintext, ivs: NoteFieldIvs = {}) {
  const title = await seal(
    dek,
    utf8ToBytes(p.title, 'note title'),
    AAD.noteField(noteId, 'title'),
    optionalIv(ivs.title, 'title iv'),
  );
  const content = await seal(
    dek,
    utf8ToBytes(p.content, 'note content'),
    AAD.noteField(noteId, 'content'),
    optionalIv(ivs.content, 'content iv'),
  );
  const tags = await seal(
    dek,
    encodeTags(p.tags, 'note tags'),
    AAD.noteField(noteId, 'tags'),
    optionalIv(ivs.tags, 'tags iv'),
  );
  return { title, content, tags: [tags] as [Sealed] };
}

/** Encrypts a new note under a fresh dek, itself wrapped under the vault key. */
export async function encryptNote(
  vaultKey: AesKeyInput,
  noteId: string,
  plaintext: NotePlaintext,
  opts: EncryptNoteOptions = {},
): Promise<EncryptedNote> {
  const id = requireItemId(noteId, 'note id');
  const p = checkPlaintext(plaintext);
  const { key: dek, wrapped: wrappedDEK } = await sealNewItemKey(
    vaultKey,
    AAD.noteKey(id),
    'dek',
    opts.dek,
    opts.ivs?.dek,
  );
  const fields = await sealFields(dek, id, p, opts.ivs);
  return { id, wrappedDEK, ...fields, isEncrypted: true };
}

function checkEncryptedNote(note: unknown): EncryptedNote {
  const n = requireObject(note, 'encrypted note');
  const id = requireItemId(n['id'], 'note id');
  if (n['isEncrypted'] !== true) throw badFormat(`note ${id} is not marked isEncrypted: true`);
  const tags = n['tags'];
  if (!Array.isArray(tags) || tags.length !== 1) throw badFormat(`note ${id} tags must be a one-item list`);
  return {
    id,
    wrappedDEK: requireSealed(n['wrappedDEK'], `note ${id} wrappedDEK`),
    title: requireSealed(n['title'], `note ${id} title`),
    content: requireSealed(n['content'], `note ${id} content`),
    tags: [requireSealed(tags[0], `note ${id} tags[0]`)],
    isEncrypted: true,
  };
}

/** The note's dek as a non-extractable key. DECRYPT_FAILED if wrappedDEK belongs to another note or key. */
export async function unwrapNoteKey(
  vaultKey: AesKeyInput,
  noteId: string,
  wrappedDEK: Sealed | string,
): Promise<CryptoKey> {
  const id = requireItemId(noteId, 'note id');
  return openAesKey(vaultKey, wrappedDEK, AAD.noteKey(id));
}

export async function decryptNote(vaultKey: AesKeyInput, note: EncryptedNoteInput): Promise<NotePlaintext> {
  const n = checkEncryptedNote(note);
  const dek = await unwrapNoteKey(vaultKey, n.id, n.wrappedDEK);
  const title = decodeText(await open(dek, n.title, AAD.noteField(n.id, 'title')), 'note title');
  const content = decodeText(await open(dek, n.content, AAD.noteField(n.id, 'content')), 'note content');
  const tags = decodeTags(await open(dek, n.tags[0], AAD.noteField(n.id, 'tags')), 'note tags');
  return { title, content, tags };
}

/** Re-seals every field with fresh IVs under the note's existing dek; wrappedDEK is unchanged. */
export async function updateNote(
  vaultKey: AesKeyInput,
  note: EncryptedNoteInput,
  plaintext: NotePlaintext,
  opts: { ivs?: NoteFieldIvs } = {},
): Promise<EncryptedNote> {
  const n = checkEncryptedNote(note);
  const p = checkPlaintext(plaintext);
  const dek = await unwrapNoteKey(vaultKey, n.id, n.wrappedDEK);
  const fields = await sealFields(dek, n.id, p, opts.ivs);
  return { id: n.id, wrappedDEK: n.wrappedDEK, ...fields, isEncrypted: true };
}

/**
 * Moves a note's dek from one vault key to another (after an access reset, once the old password unlocks
 * the old vault key). The note's fields are not touched.
 */
export async function rewrapNoteKey(
  oldVaultKey: AesKeyInput,
  newVaultKey: AesKeyInput,
  noteId: string,
  wrappedDEK: Sealed | string,
  iv?: Uint8Array,
): Promise<Sealed> {
  const id = requireItemId(noteId, 'note id');
  return resealItemKey(oldVaultKey, newVaultKey, wrappedDEK, AAD.noteKey(id), iv);
}
