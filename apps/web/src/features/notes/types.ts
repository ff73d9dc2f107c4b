/** A note's decrypted fields with the server's timestamps: what the screens and the backup file share. */
export interface NoteFields {
  id: string;
  title: string;
  content: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}
