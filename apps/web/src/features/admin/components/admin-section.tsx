import type { ReactNode } from 'react';

/** A console tab's section: its heading (which names the section) and the actions beside it. */
export function AdminSection({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="admin-section" aria-labelledby={`${id}-title`}>
      <div className="admin-section__head">
        <h2 id={`${id}-title`} className="admin-section__title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A table's column headers from their names. */
export function ColumnHeads({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name) => (
        <th key={name} scope="col">
          {name}
        </th>
      ))}
    </>
  );
}
