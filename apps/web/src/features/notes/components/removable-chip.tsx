import { CloseIcon } from '../../../components/icons';

/** A tag as a chip with its × button (the note's tags, the active tag filters). */
export function RemovableChip({
  tag,
  className = 'chip',
  removeLabel,
  onRemove,
}: {
  tag: string;
  className?: string;
  removeLabel: string;
  onRemove: () => void;
}) {
  return (
    <li className={className}>
      <span title={tag}>{tag}</span>
      <button type="button" className="chip__remove" aria-label={removeLabel} onClick={onRemove}>
        <CloseIcon width={12} height={12} />
      </button>
    </li>
  );
}
