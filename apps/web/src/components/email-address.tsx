import { Fragment } from 'react';

/**
 * An e-mail address that wraps, when it must, at sensible points only: after its '@' first (the
 * domain is one box that moves to the next line whole), and before a dot of the domain only when
 * the domain alone is wider than the line (<wbr>). Its text is the address unchanged (copy,
 * search, screen readers). The CSS that shows it keeps `overflow-wrap: anywhere` as the last
 * resort for a part wider than the line.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at < 0) return <>{email}</>;
  const domain = email.slice(at + 1).split('.');
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      <span className="email-address__domain">
        {domain.map((part, i) => (
          <Fragment key={i}>
            {i > 0 ? (
              <>
                <wbr />.
              </>
            ) : null}
            {part}
          </Fragment>
        ))}
      </span>
    </>
  );
}
