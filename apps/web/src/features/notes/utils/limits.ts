/** Spec section 9, "Business constants and limits". */
export const NOTE_PREVIEW_LENGTH = 150;
export const TRASH_PREVIEW_LENGTH = 100;
export const TAGS_PER_CARD = 3;
export const LOAD_MORE_THRESHOLD = 50;
