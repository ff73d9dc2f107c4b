import { useRef } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ClockIcon } from '../../../components/icons';
import { formatMmSs } from '../../../lib/format';

export interface InactivityModalProps {
  open: boolean;
  remainingSeconds: number;
  onStay(): void;
  onLogout(): void;
}

/** Spec: 'Session Timeout Warning' with an mm:ss countdown, 'Stay Logged In' and 'Logout Now'. */
export function InactivityModal({ open, remainingSeconds, onStay, onLogout }: InactivityModalProps) {
  const stayRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      role="alertdialog"
      size="sm"
      title="Session Timeout Warning"
      onClose={onStay}
      showCloseButton={false}
      closeOnBackdrop={false}
      initialFocusRef={stayRef}
      description={
        <p>
          You have been inactive for a while. For your security you will be signed out and your vault locked
          in:
        </p>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onLogout}>
            Logout Now
          </Button>
          <Button ref={stayRef} onClick={onStay}>
            Stay Logged In
          </Button>
        </>
      }
    >
      <div className="timeout-countdown">
        <ClockIcon />
        <span className="timeout-countdown__value" role="timer" aria-live="off" aria-atomic="true">
          {formatMmSs(remainingSeconds)}
        </span>
      </div>
    </Dialog>
  );
}
