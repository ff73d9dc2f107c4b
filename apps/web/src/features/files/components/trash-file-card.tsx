import type { TrashCardContent } from '../../../lib/trash-section';
import type { FileView } from '../types';
import { fileKind, formatFileDate, formatSizeKb } from '../utils/file-format';
import { FILE_MESSAGES } from '../utils/file-rules';
import { FileTypeIcon } from './file-icons';

/** Spec section 2: a file's trash card shows the original (decrypted) name, the size in KB and the deleted date. */
export function trashFileCard(file: FileView): TrashCardContent {
  const failed = file.status !== 'ready';
  return {
    name: failed ? FILE_MESSAGES.encryptedFile : file.name,
    failed,
    titleId: `trash-file-${file.dto.id}-title`,
    className: 'trash-file-card',
    attributes: { 'data-file-id': file.dto.id },
    icon: failed ? undefined : (
      <span className="trash-file-card__icon">
        <FileTypeIcon kind={fileKind(file.mimeType)} width={18} height={18} />
      </span>
    ),
    preview: (
      <>
        {formatSizeKb(file.dto.size)}
        {failed ? ' · This file name could not be decrypted with your vault key.' : ''}
      </>
    ),
    previewClassName: 'trash-file-card__size',
    deletedAt: file.dto.deletedAt,
    deletedOn: formatFileDate(file.dto.deletedAt ?? file.dto.uploadedAt),
  };
}
