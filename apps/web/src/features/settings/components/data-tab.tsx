import type { ReactNode } from 'react';
import { DeleteAccountSection } from './delete-account-section';
import { MalwareCheckSection } from './malware-check-section';
import './settings.css';

/** Data & Privacy: the sections the app gives (the notes' export and import), then settings' own. */
export function DataTab({ children }: { children?: ReactNode }) {
  return (
    <div className="settings-stack">
      {children}
      <MalwareCheckSection />
      <DeleteAccountSection />
    </div>
  );
}
