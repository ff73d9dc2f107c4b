import type { PasswordChecks } from '../lib/signup-validation';
import { CheckIcon, DotIcon } from './icons';

const ITEMS: { key: keyof PasswordChecks; label: string }[] = [
  { key: 'length', label: 'At least 8 characters' },
  { key: 'lowercase', label: 'One lowercase letter' },
  { key: 'uppercase', label: 'One uppercase letter' },
  { key: 'number', label: 'One number' },
  { key: 'match', label: 'Passwords match' },
];

/** The live password checklist of the sign-up screen. */
export function PasswordChecklist({ checks, id }: { checks: PasswordChecks; id?: string }) {
  return (
    <ul className="checklist" id={id} aria-label="Password requirements">
      {ITEMS.map(({ key, label }) => {
        const met = checks[key];
        return (
          <li key={key} className={`checklist__item${met ? ' checklist__item--met' : ''}`} data-met={met}>
            <span className="checklist__mark" aria-hidden="true">
              {met ? <CheckIcon /> : <DotIcon />}
            </span>
            <span>{label}</span>
            <span className="visually-hidden">{met ? ' (met)' : ' (not met yet)'}</span>
          </li>
        );
      })}
    </ul>
  );
}
