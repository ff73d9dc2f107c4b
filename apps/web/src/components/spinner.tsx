export function Spinner({ size = 'md', label }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  return (
    <span className={`spinner spinner--${size}`} role={label ? 'status' : undefined}>
      <span className="spinner__ring" aria-hidden="true" />
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}

/** The full-screen loading state (session initialisation, route loading). */
export function FullPageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="full-page-spinner" role="status" aria-live="polite">
      <span className="spinner spinner--lg" aria-hidden="true">
        <span className="spinner__ring" />
      </span>
      <p className="full-page-spinner__label">{label}</p>
    </div>
  );
}
