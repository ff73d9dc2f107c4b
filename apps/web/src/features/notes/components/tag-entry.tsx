import { useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../../components/button';
import { addTag, removeTag } from '../utils/note-rules';
import { RemovableChip } from './removable-chip';

/**
 * The note dialog's Tags field (spec section 5): Enter or + adds the typed tag (trimmed,
 * non-empty, no duplicates: a duplicate is said in the hint), × removes one. `idPrefix` makes
 * the input's and the hint's ids.
 */
export function TagEntry({
  idPrefix,
  tags,
  onChange,
}: {
  idPrefix: string;
  tags: string[];
  onChange: (tags: string[]) => void;
}) {
  const [tagInput, setTagInput] = useState('');
  const [tagHint, setTagHint] = useState<string | null>(null);
  const tagInputRef = useRef<HTMLInputElement>(null);

  const commitTag = () => {
    const result = addTag(tags, tagInput);
    if (result.ok) {
      onChange(result.tags);
      setTagInput('');
      setTagHint(null);
    } else if (result.reason === 'duplicate') {
      setTagHint(`"${tagInput.trim()}" is already added`);
    } else {
      setTagHint(null);
    }
    tagInputRef.current?.focus();
  };

  const onTagKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commitTag();
    }
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={`${idPrefix}-tag`}>
        Tags
      </label>
      <div className="tag-entry">
        <input
          ref={tagInputRef}
          id={`${idPrefix}-tag`}
          className="field__input tag-entry__input"
          value={tagInput}
          placeholder="Add a tag and press Enter"
          autoComplete="off"
          aria-describedby={tagHint ? `${idPrefix}-tag-hint` : undefined}
          onChange={(e) => {
            setTagInput(e.target.value);
            if (tagHint) setTagHint(null);
          }}
          onKeyDown={onTagKeyDown}
        />
        <Button variant="secondary" className="tag-entry__add" aria-label="Add tag" onClick={commitTag}>
          +
        </Button>
      </div>
      <p className="field__hint" id={`${idPrefix}-tag-hint`} aria-live="polite">
        {tagHint}
      </p>
      {tags.length > 0 ? (
        <ul className="tag-entry__chips" aria-label="Tags on this note">
          {tags.map((tag) => (
            <RemovableChip
              key={tag}
              tag={tag}
              removeLabel={`Remove tag ${tag}`}
              onRemove={() => {
                onChange(removeTag(tags, tag));
                tagInputRef.current?.focus();
              }}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
