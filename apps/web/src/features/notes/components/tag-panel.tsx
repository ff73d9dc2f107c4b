import type { TagCount } from '../utils/filter-notes';
import { RemovableChip } from './removable-chip';

export interface TagPanelProps {
  tags: readonly TagCount[];
  selected: readonly string[];
  totalNotes: number;
  filteredNotes: number;
  onToggle: (tag: string) => void;
  onClear: () => void;
}

export const NO_TAGS_TEXT = 'No tags found. Tags will appear here as you create notes with tags.';

/**
 * The tag filter (spec section 2): unique tags sorted alphabetically with counts, a click
 * toggles a tag, the active filters as removable chips with Clear all, and the totals.
 */
export function TagPanel({ tags, selected, totalNotes, filteredNotes, onToggle, onClear }: TagPanelProps) {
  return (
    <aside className="tag-panel" aria-labelledby="tag-panel-heading">
      <h2 id="tag-panel-heading" className="tag-panel__heading">
        Tags
      </h2>

      {selected.length > 0 ? (
        <div className="tag-panel__active">
          <div className="tag-panel__row">
            <h3 className="tag-panel__subheading">Active filters</h3>
            <button type="button" className="link-btn tag-panel__clear" onClick={onClear}>
              Clear all
            </button>
          </div>
          <ul className="tag-panel__chips">
            {selected.map((tag) => (
              <RemovableChip
                key={tag}
                tag={tag}
                className="chip chip--active"
                removeLabel={`Remove filter ${tag}`}
                onRemove={() => onToggle(tag)}
              />
            ))}
          </ul>
        </div>
      ) : null}

      {tags.length === 0 ? (
        <p className="tag-panel__empty">{NO_TAGS_TEXT}</p>
      ) : (
        <ul className="tag-panel__list" aria-label="Filter by tag">
          {tags.map(({ tag, count }) => {
            const pressed = selected.includes(tag);
            return (
              <li key={tag}>
                <button
                  type="button"
                  className={`tag-filter${pressed ? ' tag-filter--selected' : ''}`}
                  aria-pressed={pressed}
                  onClick={() => onToggle(tag)}
                >
                  <span className="tag-filter__name" title={tag}>
                    {tag}
                  </span>
                  <span
                    className="tag-filter__count"
                    aria-label={`${count} ${count === 1 ? 'note' : 'notes'}`}
                  >
                    {count}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}

      <dl className="tag-panel__totals">
        <div>
          <dt>Total notes</dt>
          <dd>{totalNotes}</dd>
        </div>
        <div>
          <dt>Unique tags</dt>
          <dd>{tags.length}</dd>
        </div>
        <div>
          <dt>Filtered notes</dt>
          <dd>{filteredNotes}</dd>
        </div>
      </dl>
    </aside>
  );
}
