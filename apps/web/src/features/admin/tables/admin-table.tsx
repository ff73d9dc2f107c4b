import { useId, type ReactNode, type Ref } from 'react';
import './admin-table.css';

/**
 * A table of the console in a labelled, focusable region that scrolls sideways on a narrow
 * screen (375 px), so every column stays readable and reachable by keyboard.
 */
export function AdminTable({
  label,
  head,
  children,
}: {
  label: string;
  head: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="admin-table" role="region" aria-label={label} tabIndex={0}>
      <table className="admin-table__table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A labelled select of the console's filters and forms. The label points at the select (not
 * wrapped around it): a wrapping label would make the chosen option part of the select's name.
 */
export function SelectField<V extends string>({
  label,
  value,
  options,
  onChange,
  id,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  id?: string;
}) {
  const fallbackId = useId();
  const selectId = id ?? fallbackId;
  return (
    <div className="admin-select">
      <label className="admin-select__label" htmlFor={selectId}>
        {label}
      </label>
      <select
        id={selectId}
        className="field__input admin-select__input"
        value={value}
        onChange={(e) => onChange(e.target.value as V)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The polite live region of an action's success ('Account locked'), read without moving focus;
 * focusable from script (`ref`) for where the control that was in use is gone.
 */
export function SuccessNote({ message, ref }: { message: string | null; ref?: Ref<HTMLParagraphElement> }) {
  return (
    <p className="admin-success" role="status" aria-live="polite" tabIndex={-1} ref={ref}>
      {message}
    </p>
  );
}
