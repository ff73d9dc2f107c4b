import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  description?: ReactNode;
}

export function Checkbox({ label, description, id, className, ...rest }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? `check-${autoId}`;
  const descId = description ? `${inputId}-desc` : undefined;
  return (
    <div className={['checkbox', className ?? ''].filter(Boolean).join(' ')}>
      <input id={inputId} type="checkbox" className="checkbox__input" aria-describedby={descId} {...rest} />
      <div>
        <label htmlFor={inputId} className="checkbox__label">
          {label}
        </label>
        {description ? (
          <p id={descId} className="checkbox__description">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
