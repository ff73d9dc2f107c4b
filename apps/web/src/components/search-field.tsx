import type { ReactNode } from 'react';

export interface SearchFieldProps {
  /** The input's id; its label is for screen readers only. */
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** The magnifier, drawn with the class 'vault-search__icon'. */
  icon: ReactNode;
  /** Classes added to 'vault-search'. */
  className?: string;
}

/** A vault page's search box (role search): the hidden label, the icon and the search input. */
export function SearchField({ id, label, placeholder, value, onChange, icon, className }: SearchFieldProps) {
  return (
    <div className={className ? `vault-search ${className}` : 'vault-search'} role="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {icon}
      <input
        id={id}
        type="search"
        className="vault-search__input"
        placeholder={placeholder}
        value={value}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
