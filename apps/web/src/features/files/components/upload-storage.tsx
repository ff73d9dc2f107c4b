import type { StorageKind, StorageType, StorageTypesResponse } from '@vault/contracts';
import { useId } from 'react';
import { RetryBanner } from '../../../components/retry-banner';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import type { useStorageTypes } from '../api/get-storage-types';
import { UPLOAD_TEXT } from './upload-text';

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

/**
 * The upload dialog's storage choice: every kind the product supports, the ones this deployment
 * has not configured disabled, with the reason and the settings that turn them on linked by
 * aria-describedby.
 */
export function StorageChoice({
  storage,
  selected,
  onChoose,
}: {
  storage: ReturnType<typeof useStorageTypes>;
  selected: StorageType | null;
  onChoose: (type: StorageType) => void;
}) {
  const groupId = useId();
  const kinds = storage.data?.kinds ?? [];
  return (
    <fieldset className="upload-storage">
      <legend className="field__label">Storage</legend>
      {storage.status === 'error' ? (
        <RetryBanner onRetry={() => void storage.refetch()}>
          {UPLOAD_TEXT.storageFailed}
          {messageOf(storage.error, '') ? `: ${messageOf(storage.error, '')}` : ''}
        </RetryBanner>
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
                    onChange={() => onChoose(k.type)}
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
  );
}
