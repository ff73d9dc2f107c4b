import { useFilesTrash } from '../../features/files/components/use-files-trash';
import { useNotesTrash } from '../../features/notes/components/use-notes-trash';
import { TrashPage } from '../../features/trash/components/trash-page';

/** /trash: the trash page over the notes' and the files' sections, in that order. */
export function TrashRoute() {
  const notes = useNotesTrash();
  const files = useFilesTrash();
  return <TrashPage sections={[notes, files]} />;
}
