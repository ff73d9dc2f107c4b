import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { LockIcon } from '../../../components/icons';
import { TextField } from '../../../components/input';
import type { DecryptedNote } from '../state/notes-store';
import { NoteActionError, type PendingCreate } from '../state/use-note-actions';
import { NOTE_MESSAGES, isDirty, validateNote, type NoteDraft } from '../utils/note-rules';
import { TagEntry } from './tag-entry';

export interface NoteDialogProps {
  /** The note being edited; null for a new note. */
  note: DecryptedNote | null;
  onClose: () => void;
  /** Creates the note; `pending` is the earlier failed attempt (same id and ciphertext on retry). */
  onCreate: (draft: NoteDraft, pending: PendingCreate | null) => Promise<unknown>;
  onUpdate: (note: DecryptedNote, draft: NoteDraft) => Promise<unknown>;
  onDelete: (note: DecryptedNote) => Promise<unknown>;
}

type Confirm = null | 'close' | 'delete';

const emptyDraft: NoteDraft = { title: '', content: '', tags: [] };

function draftOf(note: DecryptedNote | null): NoteDraft {
  return note ? { title: note.title, content: note.content, tags: [...note.tags] } : emptyDraft;
}

function describeError(error: unknown): { title: string; detail: string | null } {
  if (error instanceof NoteActionError) return { title: error.message, detail: error.reason };
  return { title: NOTE_MESSAGES.saveFailed, detail: null };
}

/**
 * Create or edit a note (spec section 2 and 5): title, tags (Enter or + adds; × removes;
 * trimmed, non-empty, no duplicates), content, an unsaved-changes dot, Delete (edit only) with
 * confirmation, Cancel, Create/Update. Closing with unsaved changes asks first. The questions
 * are asked inside the dialog (a second modal on top would fight over the focus trap).
 */
export function NoteDialog({ note, onClose, onCreate, onUpdate, onDelete }: NoteDialogProps) {
  const editing = note !== null;
  const [initial] = useState(() => draftOf(note));
  const [title, setTitle] = useState(initial.title);
  const [content, setContent] = useState(initial.content);
  const [tags, setTags] = useState<string[]>(initial.tags);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [error, setError] = useState<{ title: string; detail: string | null } | null>(null);
  const [busy, setBusy] = useState<null | 'save' | 'delete'>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const pendingCreate = useRef<PendingCreate | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const formId = `note-form-${useId()}`;
  const contentId = `note-content-${useId()}`;

  const dirty = isDirty(initial, { title, content, tags });

  useEffect(() => {
    if (confirm) confirmRef.current?.focus();
  }, [confirm]);

  const askConfirm = (kind: Confirm) => {
    returnFocusRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirm(kind);
  };

  const dismissConfirm = () => {
    setConfirm(null);
    const back = returnFocusRef.current;
    requestAnimationFrame(() => (back?.isConnected ? back : titleRef.current)?.focus());
  };

  const requestClose = () => {
    if (busy) return;
    if (confirm) {
      dismissConfirm();
      return;
    }
    if (dirty) askConfirm('close');
    else onClose();
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    const checked = validateNote({ title, content, tags });
    if (!checked.ok) {
      setTitleError(checked.error);
      titleRef.current?.focus();
      return;
    }
    setTitleError(null);
    setError(null);
    setBusy('save');
    try {
      if (note) await onUpdate(note, checked.note);
      else await onCreate(checked.note, pendingCreate.current);
      pendingCreate.current = null;
      setBusy(null);
      onClose();
    } catch (e) {
      if (e instanceof NoteActionError && e.sealed) {
        pendingCreate.current = { plain: checked.note, sealed: e.sealed };
      }
      setError(describeError(e));
      setBusy(null);
    }
  };

  const confirmDelete = async () => {
    if (!note) return;
    setError(null);
    setBusy('delete');
    try {
      await onDelete(note);
      setBusy(null);
      onClose();
    } catch (e) {
      setBusy(null);
      setConfirm(null);
      setError(
        e instanceof NoteActionError ? describeError(e) : { title: NOTE_MESSAGES.deleteFailed, detail: null },
      );
    }
  };

  const footer = confirm ? (
    <div className="note-dialog__confirm" role="alert">
      <p className="note-dialog__confirm-text">
        {confirm === 'close' ? NOTE_MESSAGES.unsavedChanges : NOTE_MESSAGES.confirmDelete}
      </p>
      <div className="note-dialog__confirm-actions">
        <Button variant="secondary" onClick={dismissConfirm} disabled={busy !== null}>
          {confirm === 'close' ? 'Keep editing' : 'Cancel'}
        </Button>
        {confirm === 'close' ? (
          <Button ref={confirmRef} variant="danger" onClick={onClose}>
            Discard changes
          </Button>
        ) : (
          <Button
            ref={confirmRef}
            variant="danger"
            loading={busy === 'delete'}
            loadingLabel="Deleting..."
            onClick={() => void confirmDelete()}
          >
            Delete note
          </Button>
        )}
      </div>
    </div>
  ) : (
    <div className="note-dialog__footer">
      {editing ? (
        <Button
          variant="ghost"
          className="note-dialog__delete"
          onClick={() => askConfirm('delete')}
          disabled={busy !== null}
        >
          Delete
        </Button>
      ) : null}
      <span className="note-dialog__spacer" />
      <Button variant="secondary" onClick={requestClose} disabled={busy !== null}>
        Cancel
      </Button>
      <Button
        type="submit"
        form={formId}
        loading={busy === 'save'}
        loadingLabel={editing ? 'Updating...' : 'Creating...'}
      >
        {editing ? 'Update' : 'Create'}
      </Button>
    </div>
  );

  return (
    <Dialog
      open
      size="lg"
      className="note-dialog"
      title={
        <span className="note-dialog__title">
          {editing ? 'Edit Note' : 'New Note'}
          {dirty ? (
            <span className="unsaved-dot" role="img" aria-label="Unsaved changes" title="Unsaved changes" />
          ) : null}
        </span>
      }
      description={
        <span className="note-dialog__lock">
          <LockIcon width={14} height={14} /> Encrypted on this device before it is saved.
        </span>
      }
      initialFocusRef={titleRef}
      onClose={requestClose}
      footer={footer}
    >
      <form id={formId} className="form note-dialog__form" onSubmit={(e) => void submit(e)} noValidate>
        {error ? (
          <Banner tone="danger" title={error.title}>
            {error.detail}
          </Banner>
        ) : null}
        <TextField
          ref={titleRef}
          label="Title"
          name="title"
          value={title}
          autoComplete="off"
          required
          error={titleError}
          onChange={(e) => {
            setTitle(e.target.value);
            if (titleError) setTitleError(null);
          }}
        />
        <TagEntry idPrefix={formId} tags={tags} onChange={setTags} />
        <div className="field">
          <label className="field__label" htmlFor={contentId}>
            Content
          </label>
          <textarea
            id={contentId}
            className="field__input note-dialog__content"
            name="content"
            value={content}
            rows={12}
            onChange={(e) => setContent(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit();
            }}
          />
        </div>
      </form>
    </Dialog>
  );
}
