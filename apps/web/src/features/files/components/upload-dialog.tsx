import type { StorageKind, StorageType, StorageTypesResponse } from '@vault/contracts';
import { useId, useState, type DragEvent } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { CheckIcon, CloseIcon, LockIcon } from '../../../components/icons';
import { TextField } from '../../../components/input';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { useStorageTypes } from '../api/get-storage-types';
import type { UploadItem, UploadQueue, UploadSnapshot, UploadStatus } from '../state/upload-queue';
import { fileKind, formatFileSize } from '../utils/file-format';
import { ACCEPT_ATTRIBUTE, parseTags } from '../utils/file-rules';
import { FileTypeIcon, UploadIcon } from './file-icons';

export const UPLOAD_STATUS_LABELS: Record<UploadStatus, string> = {
  queued: 'Ready to upload',
  encrypting: 'Encrypting',
  uploading: 'Uploading',
  completing: 'Completing',
  completed: 'Completed',
  error: 'Failed',
};

export const UPLOAD_TEXT = {
  title: 'Upload Files',
  notice:
    'Names, types, tags and contents are encrypted on this device before anything is sent. The server ' +
    'and the storage only ever receive ciphertext.',
  storageFailed: 'Failed to load storage options',
  storageOff: 'Not configured on this server.',
  background: 'Uploads continue if you close this window.',
} as const;

/**
 * The storage preselected: what the server names as its default when it is configured, else
 * Cloudinary when configured (the spec's default), else the first configured kind.
 */
export function defaultStorage(data: StorageTypesResponse | undefined): StorageType | null {
  const offered = data?.kinds.filter((k) => k.configured) ?? [];
  if (!data || offered.length === 0) return null;
  if (offered.some((k) => k.type === data.default)) return data.default;
  if (offered.some((k) => k.type === 'cloudinary')) return 'cloudinary';
  return offered[0]!.type;
}

/** 'A', 'A and B', 'A, B and C': each name as code. */
function settingsList(names: readonly string[]) {
  return names.map((name, i) => (
    <span key={name}>
      {i === 0 ? '' : i === names.length - 1 ? ' and ' : ', '}
      <code>{name}</code>
    </span>
  ));
}

/** Why a kind cannot be chosen, and the files service settings that would turn it on. */
function StorageOffReason({ id, kind }: { id: string; kind: StorageKind }) {
  return (
    <p id={id} className="upload-storage__reason">
      {UPLOAD_TEXT.storageOff}
      {kind.enableWith.length > 0 ? (
        <> To offer it, an administrator sets {settingsList(kind.enableWith)} on the files service.</>
      ) : null}
    </p>
  );
}

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
  const groupId = useId();
  const kinds = storage.data?.kinds ?? [];
  const selected =
    choice && kinds.some((k) => k.type === choice && k.configured) ? choice : defaultStorage(storage.data);
  const ready = uploads.items.filter((i) => i.status === 'queued' && !i.started);
  const tags = parseTags(tagsInput);

  const add = (files: FileList | null) => {
    if (files && files.length > 0) queue?.add(Array.from(files));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer?.files ?? null);
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
        <fieldset className="upload-storage">
          <legend className="field__label">Storage</legend>
          {storage.status === 'error' ? (
            <Banner
              tone="danger"
              action={
                <Button variant="secondary" size="sm" onClick={() => void storage.refetch()}>
                  Retry
                </Button>
              }
            >
              {UPLOAD_TEXT.storageFailed}
              {messageOf(storage.error, '') ? `: ${messageOf(storage.error, '')}` : ''}
            </Banner>
          ) : !storage.data ? (
            <p className="upload-storage__loading">
              <Spinner size="sm" /> Loading storage options...
            </p>
          ) : (
            <div className="upload-storage__options">
              {kinds.map((k) => {
                const reasonId = `${groupId}-${k.type}-off`;
                return (
                  <div
                    key={k.type}
                    className={`upload-storage__option${k.configured ? '' : ' upload-storage__option--off'}`}
                  >
                    <label className="upload-storage__label">
                      <input
                        type="radio"
                        name={`${groupId}-storage`}
                        value={k.type}
                        checked={selected === k.type}
                        disabled={!k.configured}
                        aria-describedby={k.configured ? undefined : reasonId}
                        onChange={() => setChoice(k.type)}
                      />
                      <span>{k.label}</span>
                    </label>
                    {k.configured ? null : <StorageOffReason id={reasonId} kind={k} />}
                  </div>
                );
              })}
            </div>
          )}
        </fieldset>

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
          <label className="btn btn--secondary btn--md file-picker">
            <input
              type="file"
              className="visually-hidden"
              multiple
              accept={ACCEPT_ATTRIBUTE}
              onChange={(e) => {
                add(e.target.files);
                e.target.value = '';
              }}
            />
            <span className="btn__label">Choose files</span>
          </label>
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

function UploadRow({ item, onRemove }: { item: UploadItem; onRemove: () => void }) {
  const label = UPLOAD_STATUS_LABELS[item.status];
  const moving = item.status === 'encrypting' || item.status === 'uploading' || item.status === 'completing';
  const removable = !moving && !(item.started && item.status === 'queued') && item.status !== 'completed';
  return (
    <li className={`upload-row upload-row--${item.status}`}>
      <span className="upload-row__icon">
        {item.status === 'completed' ? (
          <CheckIcon width={20} height={20} />
        ) : (
          <FileTypeIcon kind={fileKind(item.mimeType)} width={22} height={22} />
        )}
      </span>
      <div className="upload-row__main">
        <div className="upload-row__line">
          <span className="upload-row__name" title={item.name}>
            {item.name}
          </span>
          <span className="upload-row__size">{formatFileSize(item.size)}</span>
        </div>
        <div className="upload-row__line">
          <span className="upload-row__status">
            {/* The bar shows the progress; only upload-complete, which has none, spins. */}
            {item.status === 'completing' ? <Spinner size="sm" /> : null}
            {label}
          </span>
          {item.started && item.status !== 'error' ? (
            <span className="upload-row__percent">{item.progress}%</span>
          ) : null}
        </div>
        {item.started && item.status !== 'error' ? (
          <div
            className="upload-row__bar"
            role="progressbar"
            aria-label={`${item.name}: ${label}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.progress}
            aria-valuetext={`${label} ${item.progress}%`}
          >
            <span className="upload-row__fill" style={{ transform: `scaleX(${item.progress / 100})` }} />
          </div>
        ) : null}
        {item.error ? (
          <p className="upload-row__error" role="alert">
            {item.error}
          </p>
        ) : null}
      </div>
      {removable ? (
        <button
          type="button"
          className="icon-btn upload-row__remove"
          aria-label={`Remove ${item.name}`}
          onClick={onRemove}
        >
          <CloseIcon width={16} height={16} />
        </button>
      ) : null}
    </li>
  );
}
