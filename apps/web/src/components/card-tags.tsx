/** A card's first tags as small chips, then '+N more' for the rest (spec section 2). */
export function CardTags({
  className,
  shown,
  more,
}: {
  className: string;
  shown: readonly string[];
  more: number;
}) {
  if (shown.length === 0) return null;
  return (
    <ul className={className} aria-label="Tags">
      {shown.map((tag) => (
        <li key={tag} className="chip chip--sm" title={tag}>
          <span>{tag}</span>
        </li>
      ))}
      {more > 0 ? <li className="chip chip--sm chip--more">+{more} more</li> : null}
    </ul>
  );
}
