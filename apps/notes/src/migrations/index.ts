import { CreateNotesSchema1795400000000 } from './1795400000000-create-notes-schema';
import { NoteListOrder1795600000000 } from './1795600000000-note-list-order';
import { NoteCounts1795800000000 } from './1795800000000-note-counts';

/** Every migration of the notes schema, oldest first (classes, so ts-jest and dist both work). */
export const NOTES_MIGRATIONS = [
  CreateNotesSchema1795400000000,
  NoteListOrder1795600000000,
  NoteCounts1795800000000,
];
