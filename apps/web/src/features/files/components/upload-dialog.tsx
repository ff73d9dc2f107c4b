import type { StorageType } from '@vault/contracts';
import { useState, type DragEvent } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { LockIcon } from '../../../components/icons';
import { TextField } from '../../../components/input';
import { useStorageTypes } from '../api/get-storage-types';
import type { UploadQueue, UploadSnapshot } from '../state/upload-queue';
import { parseTags } from '../utils/file-rules';
import { UploadIcon } from './file-icons';
import { FilePicker } from './file-picker';
import { UploadRow } from './upload-row';
import { defaultStorage, StorageChoice } from './upload-storage';
import { UPLOAD_TEXT } from './upload-text';

export interface UploadDialogProps {
  open: boolean;
  onClose: () => void;
  queue: UploadQueue | null;
  uploads: UploadSnapshot;
}

/**
 * The upload dialog (spec section 2): the storage choice (every kind the product supports; the
 * ones this deployment has not configured are disabled, with the reason and the settings that
 * turn them on linked by aria-describedby; the server's default preselected), optional comma-separated tags (sealed with each file), a drop zone and a picker for
 * several files, one row per file with its status and progress, and the end-to-end encryption
 * notice. Files are checked as they are added (size, type, name: spec section 5); Upload starts
 * the ones that passed.
 */
export function UploadDialog({ open, onClose, queue, uploads }: UploadDialogProps) {
  const storage = useStorageTypes(open);
  const [choice, setChoice] = useState<StorageType | null>(null);
  const [tagsInput, setTagsInput] = useState('');
  const [dragging, setDragging] = useState(false);
  const kinds = storage.data?.kinds ?? [];
  const selected =
    choice && kinds.some((k) => k.type === choice && k.configured) ? choice : defaultStorage(storage.data);
  const ready = uploads.items.filter((i) => i.status === 'queued' && !i.started);
  const tags = parseTags(tagsInput);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const files = event.dataTransfer?.files;
    if (files && files.length > 0) queue?.add(Array.from(files));
  };

  const start = () => {
    if (!selected || ready.length === 0) return;
    queue?.start({ storageType: selected, tags });
  };

  return (
    <Dialog
      open={open}
      title={UPLOAD_TEXT.title}
      description="Choose where the encrypted files are stored, add tags if you like, then add the files."
      onClose={onClose}
      size="lg"
      className="upload-dialog"
      footer={
        <>
          {uploads.busy ? <p className="upload-dialog__background">{UPLOAD_TEXT.background}</p> : null}
          <Button variant="secondary" onClick={onClose}>
            {uploads.busy ? 'Hide' : 'Close'}
          </Button>
          <Button
            icon={<UploadIcon width={18} height={18} />}
            disabled={ready.length === 0 || !selected}
            onClick={start}
          >
            {ready.length > 1 ? `Upload ${ready.length} files` : 'Upload'}
          </Button>
        </>
      }
    >
      <div className="upload-dialog__form">
        <StorageChoice storage={storage} selected={selected} onChoose={setChoice} />

        <TextField
          label="Tags (optional)"
          hint="Separate tags with commas, e.g. work, taxes. Tags are encrypted too."
          value={tagsInput}
          autoComplete="off"
          onChange={(e) => setTagsInput(e.target.value)}
        />

        <div
          className={`upload-drop${dragging ? ' upload-drop--active' : ''}`}
          onDragEnter={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragOver={(e) => {
            e.preventDefault();
            if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
          }}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={onDrop}
          data-testid="upload-drop-zone"
        >
          <UploadIcon width={32} height={32} className="upload-drop__icon" />
          <p className="upload-drop__title">Drag and drop files here</p>
          <p className="upload-drop__or">or</p>
          <FilePicker onFiles={(files) => queue?.add(files)}>
            <span className="btn__label">Choose files</span>
          </FilePicker>
          <p className="upload-drop__hint">
            Images (JPEG, PNG, GIF, WebP), PDF, text, Word, Excel and zip files, up to 100 MB each.
          </p>
        </div>

        {uploads.items.length > 0 ? (
          <ul className="upload-list" aria-label="Files to upload">
            {uploads.items.map((item) => (
              <UploadRow key={item.key} item={item} onRemove={() => queue?.remove(item.key)} />
            ))}
          </ul>
        ) : null}

        <Banner tone="info" icon={<LockIcon />} title="End-to-end encrypted" role="none">
          {UPLOAD_TEXT.notice}
        </Banner>
      </div>
    </Dialog>
  );
}
