import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

export function focusableWithin(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true',
  );
}

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Escape, the close button and a click on the backdrop call it; without it the dialog must be answered. */
  onClose?: () => void;
  /** 'alertdialog' for warnings that need an answer (e.g. the inactivity warning). */
  role?: 'dialog' | 'alertdialog';
  /** What gets focus on open; default: the first focusable element. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  closeOnBackdrop?: boolean;
  showCloseButton?: boolean;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/**
 * A modal dialog: rendered in a portal, aria-modal with its title and description wired up,
 * focus moved in on open, trapped (Tab / Shift+Tab cycle), Escape to close, and focus returned
 * to what had it before. The rest of the app is made inert while it is open.
 */
export function Dialog({
  open,
  title,
  description,
  children,
  footer,
  onClose,
  role = 'dialog',
  initialFocusRef,
  closeOnBackdrop = true,
  showCloseButton = true,
  size = 'md',
  className,
}: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  const id = useId();
  const titleId = `dialog-${id}-title`;
  const descId = description ? `dialog-${id}-desc` : undefined;

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    if (!panel) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const appRoot = document.getElementById('root');
    const rootWasInert = appRoot?.hasAttribute('inert') ?? false;
    if (appRoot && !appRoot.contains(panel)) appRoot.setAttribute('inert', '');
    document.body.classList.add('has-modal');

    const target = initialFocusRef?.current ?? focusableWithin(panel)[0] ?? panel;
    target.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (onCloseRef.current) {
          event.stopPropagation();
          onCloseRef.current();
        }
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableWithin(panel);
      if (items.length === 0) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === panel || !panel.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus that escapes (a click on the page behind, assistive tech) is brought back.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !panel.contains(event.target)) {
        (focusableWithin(panel)[0] ?? panel).focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      if (appRoot && !rootWasInert) appRoot.removeAttribute('inert');
      document.body.classList.remove('has-modal');
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open, initialFocusRef]);

  if (!open) return null;
  return createPortal(
    <div className="dialog-layer">
      <div
        className="dialog-backdrop"
        aria-hidden="true"
        onMouseDown={() => {
          if (closeOnBackdrop) onCloseRef.current?.();
        }}
      />
      <div
        ref={panelRef}
        className={['dialog', `dialog--${size}`, className ?? ''].filter(Boolean).join(' ')}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descId}
        tabIndex={-1}
      >
        <div className="dialog__header">
          <h2 className="dialog__title" id={titleId}>
            {title}
          </h2>
          {onClose && showCloseButton ? (
            <button type="button" className="icon-btn dialog__close" aria-label="Close" onClick={onClose}>
              <CloseIcon />
            </button>
          ) : null}
        </div>
        {description ? (
          <div className="dialog__description" id={descId}>
            {description}
          </div>
        ) : null}
        {children ? <div className="dialog__body">{children}</div> : null}
        {footer ? <div className="dialog__footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
