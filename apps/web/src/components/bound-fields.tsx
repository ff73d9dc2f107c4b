import type { Ref } from 'react';
import { TextField, type TextFieldProps } from './input';
import { PasswordInput } from './password-input';

/** One field of a form: which value it edits, and the input's own props (label, name, autoComplete...). */
export interface BoundField<K extends string> extends Omit<
  TextFieldProps,
  'value' | 'onChange' | 'disabled'
> {
  field: K;
  /** A PasswordInput (with its show/hide toggle) rather than a plain TextField. */
  password?: boolean;
  /** What is kept of the typed text (e.g. digits only); by default all of it. */
  clean?: (typed: string) => string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A form's text and password fields, in order, bound to one object of values: each shows
 * values[field] and reports what is typed as onEdit(field, text). All wait together while busy.
 */
export function BoundFields<K extends string>({
  fields,
  values,
  onEdit,
  disabled,
}: {
  fields: BoundField<K>[];
  values: Record<K, string>;
  onEdit: (field: K, value: string) => void;
  disabled: boolean;
}) {
  return fields.map(({ field, password, clean = (typed) => typed, ...props }) => {
    const Input = password ? PasswordInput : TextField;
    return (
      <Input
        key={field}
        {...props}
        value={values[field]}
        onChange={(e) => onEdit(field, clean(e.target.value))}
        disabled={disabled}
      />
    );
  });
}
